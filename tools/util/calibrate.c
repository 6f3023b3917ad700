/* memshim tune --calibrate: the cost curves of this machine.
 *
 * Every usable variant (the *_erms rows excepted: composed in tune_model.c) is
 * timed with memshim bench's machinery (interleaved rounds, random sizes
 * within a bucket and random offsets, so no branch predictor learns one
 * size) at a grid of buckets of the histogram format.  The variants timed
 * are this program's own copies, linked in, whose thresholds it can set:
 * all at "never" for the first pass, non-temporal stores from 0 for a
 * second pass of the vector variants.  Then the thresholds are picked from
 * the curves, set, and each function's variant is chosen (band_choice.c).
 *
 * Cold data is flushed from the caches before each timed pass
 * (tools/util/measure.c), never pushed out by walking a working set
 * larger than the last-level cache: on a machine with a large L3 that walk
 * took most of a calibration's time (BENCHMARKS.md section 6, "Time",
 * measures the flushed calibration with such an L3 pretended). */
#include "config.h"

#include "dispatch/auto_policy.h"
#include "dispatch/cpu_features.h"
#include "shim/thresholds.h"
#include "tools/util/band_choice.h"
#include "tools/util/caches.h"
#include "tools/util/calibrate.h"
#include "tools/util/measure.h"
#include "tools/util/progress.h"
#include "tools/util/tune_model.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

struct grid {
	unsigned count;
	size_t lo[CM_MAX_POINTS], hi[CM_MAX_POINTS]; /* sizes drawn from [lo, hi] */
	bool cold[CM_MAX_POINTS];
};

static void grid_add(struct grid *g, size_t lo, size_t hi, bool cold)
{
	g->lo[g->count] = lo;
	g->hi[g->count] = hi;
	g->cold[g->count++] = cold;
}

/* Buckets of the histogram format: a few exact small sizes, two buckets per
 * power of two to 64 KiB, then one per power to 32 MiB, the largest from 4
 * MiB on cold.  quick: one bucket per power, every other power beyond 64
 * KiB.  tiny: a dozen hot ones. */
static void make_grid(struct grid *g, enum calibration_level level)
{
	static const size_t exact[] = { 0, 1, 2, 3, 4, 6, 8, 12, 16 }, few_exact[] = { 0, 1, 4, 8, 16 };
	static const size_t tiny_exact[] = { 0, 1, 8, 16 };
	bool full = level == CALIBRATE_FULL, tiny = level == CALIBRATE_TINY;
	const size_t *sizes = full ? exact : tiny ? tiny_exact : few_exact;
	unsigned count = full ? 9 : tiny ? 4 : 5;
	for (unsigned i = 0; i < count; i++)
		grid_add(g, sizes[i], sizes[i], false);
	if (full) {
		grid_add(g, 20, 21, false);
		grid_add(g, 24, 25, false);
	}
	for (unsigned p = 5; p <= (tiny ? 12u : 16u); p++) {
		size_t base = (size_t)1 << p, step = base >> 3;
		grid_add(g, base, base + step - 1, false);
		if (full)
			grid_add(g, base + 4 * step, base + 5 * step - 1, false);
	}
	for (unsigned p = 17; !tiny && p <= 25; p += full ? 1 : 2)
		grid_add(g, (size_t)1 << p, ((size_t)1 << p) + ((size_t)1 << (p - 3)) - 1, p >= 22);
}

/* A vector variant without a rep band (those are composed from it). */
static bool is_vector(const char *name)
{
	const struct variant *v = variant_named(name);
	return v && v->vector_bytes && !v->rep_band;
}

/* The variants to time, from this program's own table; vector_only: the
 * vector ones and glibc (the baseline bench_measure needs). */
static unsigned load_variants(struct bench_variant *v, unsigned *glibc, bool vector_only)
{
	unsigned n = 0;
	for (unsigned i = 0; i < variant_count && n < BENCH_MAX_VARIANTS; i++) {
		const struct variant *row = &variant_table[i];
		bool is_glibc = row == VARIANT(glibc);
		if (!variant_usable(row) || variant_twin(row) != row || (vector_only && !is_glibc && !is_vector(row->name)))
			continue;
		v[n] = bench_variant_of(row);
		if (is_glibc)
			*glibc = n;
		n++;
	}
	return n;
}

static struct named_curve *curve_slot(struct calibration *c, enum base_function fn, const char *name)
{
	for (unsigned i = 0; i < c->count; i++)
		if (c->curves[i].fn == fn && strcmp(c->curves[i].name, name) == 0)
			return &c->curves[i];
	struct named_curve *n = &c->curves[c->count++];
	n->fn = fn;
	snprintf(n->name, sizeof n->name, "%s", name);
	n->curve.rounds = c->rounds;
	return n;
}

/* Times grid point p of fn for every variant of s into the curves named
 * after them (with `suffix`). */
static void measure_point(struct calibration *c, const struct bench_settings *s, const struct grid *g,
			  unsigned p, enum base_function fn, const char *suffix, struct progress *bar)
{
	char detail[80];
	snprintf(detail, sizeof detail, "%s curves, %zu B%s%s", base_function_names[fn], g->lo[p],
		 g->cold[p] ? " cold" : "", *suffix ? ", non-temporal" : "");
	progress_step(bar, detail);
	struct bench_case bc = { .fn = fn, .kind = CASE_CLASS, .cold = g->cold[p], .lo = g->lo[p],
				 .hi = g->hi[p], .src_offset = -1, .dst_offset = -1,
				 .read_back = g->lo[p] >= TUNE_READ_BACK_FROM };
	struct bench_result r;
	bench_measure(s, &bc, &r);
	for (unsigned v = 0; v < s->variant_count; v++) {
		char name[24];
		snprintf(name, sizeof name, "%s%s", s->variants[v].name, suffix);
		struct cm_curve *curve = &curve_slot(c, fn, name)->curve;
		curve->size[p] = r.mean_bytes;
		for (unsigned k = 0; k < s->rounds; k++)
			curve->cost[p][k] = s->round_times[v * s->rounds + k];
		curve->points = p + 1 > curve->points ? p + 1 : curve->points;
	}
}

/* Non-temporal stores for a copy below this would evict almost nothing and
 * slow the caller that reads it (glibc refuses a threshold below 0x4040):
 * the second pass times them from here on only. */
#define NT_SIZES_FROM (16u << 10)

/* Second pass: NAME:nt starts as a copy of NAME; sizes from NT_SIZES_FROM
 * on are timed again with non-temporal stores. */
static void measure_nt(struct calibration *c, struct bench_settings *s, const struct grid *g, struct progress *bar)
{
	unsigned pass1 = c->count;
	for (unsigned i = 0; i < pass1; i++)
		if (is_vector(c->curves[i].name)) {
			char name[24];
			snprintf(name, sizeof name, "%s:nt", c->curves[i].name);
			struct named_curve *n = curve_slot(c, c->curves[i].fn, name);
			n->curve = c->curves[i].curve;
		}
	memshim_thresholds.nt = 0;
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (unsigned p = 0; p < g->count; p++)
			if (g->lo[p] >= NT_SIZES_FROM)
				measure_point(c, s, g, p, (enum base_function)fn, ":nt", bar);
	/* the glibc rows of this pass are not curves */
	unsigned kept = pass1;
	for (unsigned i = pass1; i < c->count; i++)
		if (strcmp(c->curves[i].name, "glibc:nt") != 0)
			c->curves[kept++] = c->curves[i];
	c->count = kept;
}

/* A workload of every grid size, each weighted so that it costs glibc the
 * same: with no program in view, each size counts as much as any other. */
static void reference_workload(const struct calibration *c, enum base_function fn, struct cm_workload *w)
{
	const struct cm_curve *g = calibration_curve(c, fn, "glibc");
	w->count = 0;
	for (unsigned p = 0; g && p < g->points; p++)
		if (g->median[p] > 0)
			cm_workload_add(w, 1 / g->median[p], g->size[p] / g->median[p]);
}

static void pick_auto_thresholds(struct calibration *c)
{
	const char *why, *variant[FN_COUNT];
	for (int fn = 0; fn < FN_COUNT; fn++)
		variant[fn] = widest_vector_variant(cpu_features(), &why)->name;
	static struct cm_workload w[FN_COUNT];
	double t[T_COUNT];
	tune_builtin_thresholds(t);
	for (int fn = 0; fn < FN_COUNT; fn++)
		reference_workload(c, (enum base_function)fn, &w[fn]);
	tune_thresholds(c, variant, w, t);
	c->auto_movsb = (size_t)t[T_AUTO_MOVSB];
	c->auto_stosb = (size_t)t[T_AUTO_STOSB];
	c->nt = (size_t)t[T_NT];
}

/* Rounds per grid size and how long a hot batch lasts, by level. */
static const struct {
	unsigned rounds;
	double batch_ns;
} level_settings[] = {
	[CALIBRATE_TINY] = { 3, 20e3 },
	[CALIBRATE_QUICK] = { 4, 40e3 },
	[CALIBRATE_FULL] = { 7, 100e3 },
};

static unsigned steps(const struct grid *g)
{
	unsigned nt = 0;
	for (unsigned p = 0; p < g->count; p++)
		nt += g->lo[p] >= NT_SIZES_FROM;
	return FN_COUNT * (g->count + nt) + tune_choice_steps();
}

static size_t largest(const struct grid *g)
{
	size_t choice = tune_choice_largest();
	return g->hi[g->count - 1] > choice ? g->hi[g->count - 1] : choice;
}

int tune_measure(struct calibration *c, enum calibration_level level)
{
	static struct bench_variant variants[BENCH_MAX_VARIANTS];
	static double round_times[BENCH_MAX_VARIANTS * CM_MAX_ROUNDS];
	static struct grid g;
	const struct cpu_features *f = cpu_features();
	config_get(); /* read now, so it cannot later overwrite the thresholds set below */
	memshim_thresholds = (struct thresholds){ .erms = (size_t)CM_NEVER, .stosb = (size_t)CM_NEVER,
						  .auto_movsb = (size_t)CM_NEVER, .auto_stosb = (size_t)CM_NEVER,
						  .nt = (size_t)CM_NEVER };
	g.count = 0;
	make_grid(&g, level);
	struct bench_settings s = { .variants = variants, .rounds = level_settings[level].rounds,
				    .batch_ns = level_settings[level].batch_ns, .cold_bytes = bench_cold_span(),
				    .round_times = round_times };
	s.variant_count = load_variants(variants, &s.glibc, false);
	if (!bench_buffers_init(largest(&g), s.cold_bytes))
		return 1;
	bench_clock_open(&s.clock);
	bench_pin(s.pinning, sizeof s.pinning);
	*c = (struct calibration){ .family = f->family, .model = f->model, .rounds = s.rounds };
	snprintf(c->vendor, sizeof c->vendor, "%s", f->vendor);
	snprintf(c->unit, sizeof c->unit, "%s", s.clock.unit);
	snprintf(c->clock, sizeof c->clock, "%s, %s", s.clock.description, s.pinning);
	struct progress bar;
	progress_start(&bar, "memshim tune: calibrating", steps(&g));
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (unsigned p = 0; p < g.count; p++)
			measure_point(c, &s, &g, p, (enum base_function)fn, "", &bar);
	s.variant_count = load_variants(variants, &s.glibc, true);
	measure_nt(c, &s, &g, &bar);
	for (unsigned i = 0; i < c->count; i++)
		cm_curve_finish(&c->curves[i].curve);
	pick_auto_thresholds(c);
	tune_choose_variants(c, &s, &bar);
	progress_end(&bar);
	return 0;
}
