/* tune's prediction from the replay: the setting and glibc (or another
 * setting) timed on the
 * program's own windows of calls (tools/measure/replay.h), class by class. */
#include "tools/tune/tune.h"

#include "tools/measure/library.h"
#include "tools/measure/measure.h"
#include "tools/measure/replay.h"
#include "tools/util/timing_stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Up to this size a class's calls are replayed spread over half the L2,
 * beyond it cold: a program does other work between its copies, which
 * takes their small data out of L1 but seldom out of L2, and its large
 * copies mostly move data not touched for a while. */
#define REPLAY_WARM_UP_TO (32u << 10)
/* Each class replayed until its ratio is known within +-1%, or a quarter
 * of a second: a recording has a dozen classes a function at most. */
#define TUNE_REPLAY_STOP ((struct measure_stop){ .width = 0.02, .seconds = 0.25, .min_pairs = 20, .max_pairs = 401 })

/* Setting s as a column: one band a function is called straight, as
 * direct binding calls it; more go through their bands. */
static struct measure_variant setting_variant(const struct tune_setting *s, struct measure_bands bands[FN_COUNT])
{
	struct measure_variant v = { .name = "setting", .thresholds = &s->t };
	for (int fn = 0; fn < FN_COUNT; fn++) {
		const struct band_list *b = &s->bands[fn];
		bands[fn].count = b->count;
		for (unsigned i = 0; i < b->count; i++) {
			struct measure_variant timed = measure_variant_of(b->variant[i]);
			bands[fn].upper[i] = b->upper[i];
			bands[fn].copy[i] = timed.copy[fn];
			bands[fn].set[i] = timed.set;
		}
		if (fn == FN_MEMSET)
			v.set = bands[fn].set[0];
		else
			v.copy[fn] = bands[fn].copy[0];
		v.bands[fn] = b->count > 1 ? &bands[fn] : NULL;
	}
	return v;
}

/* The histogram's calls of fn in each replay class. */
static void class_calls(const struct function_histogram *h, double calls[REPLAY_CLASSES + 1])
{
	memset(calls, 0, (REPLAY_CLASSES + 1) * sizeof calls[0]);
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		calls[replay_class_of(hist_bucket_lo(b))] += (double)h->calls[b];
}

/* Sums of weight x ratio (and its bounds) and of weight, per function and in all. */
struct sums {
	double w[FN_COUNT + 1], r[FN_COUNT + 1], lo[FN_COUNT + 1], hi[FN_COUNT + 1];
};

static void add(struct sums *t, int fn, double weight, const struct measure_result *r)
{
	int at[2] = { fn, FN_COUNT };
	for (int i = 0; i < 2; i++) {
		t->w[at[i]] += weight;
		t->r[at[i]] += weight * r->ratio[1];
		t->lo[at[i]] += weight * r->ratio_low[1];
		t->hi[at[i]] += weight * r->ratio_high[1];
	}
}

/* The program's timed ns per call in class k of fn, where its calls ran
 * glibc's function, the replay's baseline; 0 where there is none to match. */
static double timed_glibc_ns(const struct dump *d, enum base_function fn, unsigned k, bool glibc_baseline)
{
	struct timed_ns m;
	if (!glibc_baseline || strcmp(d->variant[fn], "glibc") != 0 ||
	    !timing_range(&d->timing, fn, replay_classes[k].lo, (uint64_t)replay_classes[k].hi + 1, &m))
		return 0;
	return m.mean;
}

/* The placement the program's timed calls put class k in: the replay
 * timed in each placement (fenced, as a timed call
 * runs), then the mix of the two neighbouring placements in which glibc
 * takes the program's timed ns per call (the nearer end outside them),
 * and the setting's time in that mix against glibc's, into *mixed.  A
 * program's data is seldom in one place (D40). */
static void place_by_timing(const struct measure_settings *s, enum base_function fn, const struct replay_calls *r,
			    const char *label, double timed_ns, struct measure_result *placed, struct measure_result *mixed)
{
	unsigned order[PLACE_COUNT] = { 0 };
	for (unsigned p = 0; p < PLACE_COUNT; p++) {
		struct measure_case c = replay_case(fn, r, (enum placement)p, label);
		c.fenced = true;
		measure_run(s, &c, &placed[p]);
		unsigned i = p; /* insertion by glibc's time */
		for (; i > 0 && placed[order[i - 1]].median[0] > placed[p].median[0]; i--)
			order[i] = order[i - 1];
		order[i] = p;
	}
	unsigned a = 0;
	while (a + 2 < PLACE_COUNT && timed_ns > placed[order[a + 1]].median[0])
		a++;
	const struct measure_result *lo = &placed[order[a]], *hi = &placed[order[a + 1]];
	double span = hi->median[0] - lo->median[0], w = span > 0 ? (timed_ns - lo->median[0]) / span : 0;
	w = w < 0 ? 0 : w > 1 ? 1 : w;
	*mixed = *lo;
	for (unsigned v = 0; v < 2; v++)
		mixed->median[v] = (1 - w) * lo->median[v] + w * hi->median[v];
	/* the interval as wide, relative to the ratio, as the mix of the two */
	double ratio = (1 - w) * lo->ratio[1] + w * hi->ratio[1];
	mixed->ratio[1] = mixed->median[1] / mixed->median[0];
	mixed->ratio_low[1] = mixed->ratio[1] * ((1 - w) * lo->ratio_low[1] + w * hi->ratio_low[1]) / ratio;
	mixed->ratio_high[1] = mixed->ratio[1] * ((1 - w) * lo->ratio_high[1] + w * hi->ratio_high[1]) / ratio;
}

/* Times fn's classes; false if out of memory. */
static bool replay_function(const struct dump *d, struct measure_settings *s, enum base_function fn,
			    struct tune_replay_how how, bool glibc_baseline, struct sums *t, struct tune_replayed *out)
{
	double calls[REPLAY_CLASSES + 1], total = 0, missed = 0, timed_calls = 0;
	class_calls(&d->hist.fn[fn], calls);
	for (unsigned k = 0; k <= REPLAY_CLASSES; k++)
		total += calls[k];
	for (unsigned k = 0; k < REPLAY_CLASSES; k++) {
		struct replay_calls r;
		if (!calls[k])
			continue;
		if (!replay_gather(d, fn, replay_classes[k].lo, replay_classes[k].hi, &r) || r.count < REPLAY_MIN_CALLS) {
			missed += calls[k];
			replay_free(&r);
			continue;
		}
		enum placement by_size = replay_classes[k].hi <= REPLAY_WARM_UP_TO ? PLACE_L2 : PLACE_COLD;
		enum placement where = how.place < PLACE_COUNT ? (enum placement)how.place : by_size;
		double timed_ns = how.place == TUNE_PLACE_BY_TIMING ? timed_glibc_ns(d, fn, k, glibc_baseline) : 0;
		struct measure_result *res = calloc(PLACE_COUNT + 1, sizeof *res);
		bool ok = res && measure_buffers_init(r.max, s->cold_bytes);
		if (ok && timed_ns > 0) {
			place_by_timing(s, fn, &r, replay_classes[k].label, timed_ns, res + 1, res);
			timed_calls += calls[k];
		} else if (ok) {
			struct measure_case c = replay_case(fn, &r, where, replay_classes[k].label);
			c.fenced = how.fenced;
			measure_run(s, &c, res);
		}
		if (ok) {
			add(t, fn, calls[k] * res->median[0], res);
			out->rounds = res->rounds;
		}
		free(res);
		replay_free(&r);
		if (!ok)
			return false;
	}
	out->left_out[fn] = total > 0 ? (missed + calls[REPLAY_CLASSES]) / total : 0;
	out->by_timing[fn] = total > 0 ? timed_calls / total : 0;
	return true;
}

/* Whether base runs glibc's own fn at every size: then its column is the
 * one a program's timed calls of glibc's functions can place. */
static bool runs_glibc(const struct tune_setting *base, int fn)
{
	const struct band_list *b = &base->bands[fn];
	return b->count == 1 && strcmp(b->variant[0]->name, "glibc") == 0;
}

bool tune_replay(const struct dump *d, const struct tune_setting *mine, const struct tune_setting *base,
		 struct tune_replay_how how, struct tune_replayed *out)
{
	if (!measure_library()) /* nothing to time with: said */
		return false;
	static struct measure_variant columns[2];
	static struct measure_bands bands[2][FN_COUNT];
	struct sums t = { 0 };
	memset(out, 0, sizeof *out);
	columns[0] = base ? setting_variant(base, bands[0]) : measure_variant_of(variant_named("glibc"));
	columns[1] = setting_variant(mine, bands[1]);
	struct measure_settings s = { .variants = columns, .variant_count = 2, .glibc = 0, .stop = TUNE_REPLAY_STOP,
				    .cold_bytes = measure_cold_span() };
	measure_clock_open(&s.clock);
	bool ok = true;
	for (int fn = 0; fn < FN_COUNT && ok; fn++)
		ok = replay_function(d, &s, (enum base_function)fn, how, !base || runs_glibc(base, fn), &t, out);
	measure_library_thresholds(NULL); /* the library's own again */
	for (int i = 0; i <= FN_COUNT; i++)
		if ((out->has[i] = t.w[i] > 0)) {
			out->ratio[i] = t.r[i] / t.w[i];
			out->low[i] = t.lo[i] / t.w[i];
			out->high[i] = t.hi[i] / t.w[i];
		}
	return ok;
}
