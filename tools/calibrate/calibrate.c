/* memshim tune --calibrate: the cost curves of this machine.
 *
 * Every usable variant (the *_erms variants excepted: composed in model.c) is
 * timed with memshim bench's machinery (interleaved rounds, random sizes
 * within a bucket and random offsets, so no branch predictor learns one
 * size) at a grid of buckets of the histogram format.  The variants timed
 * are the library's, which runs them with the thresholds passed to it:
 * all at "never" for the first pass, non-temporal stores from 0 for a
 * second pass of the vector variants, and a third pass of the vector
 * variants and rep movsb on flushed data from 1 KiB on, and a fourth of
 * the vector variants with non-temporal stores on flushed data.  Then the
 * thresholds are picked from the curves, set, and each function's variant
 * is chosen (measure_classes.c).
 *
 * Cold data is flushed from the caches before each timed pass
 * (tools/measure/measure.c), never pushed out by walking a working set
 * larger than the last-level cache: with a large L3 that walk took most
 * of a calibration's time (D30). */
#include "config.h"

#include "dispatch/builtin.h"
#include "dispatch/cpu_features.h"
#include "shim/thresholds.h"
#include "tools/calibrate/measure_classes.h"
#include "tools/measure/caches.h"
#include "tools/calibrate/calibrate.h"
#include "tools/measure/library.h"
#include "tools/measure/measure.h"
#include "tools/measure/progress.h"
#include "tools/calibrate/model.h"

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

/* Whether a grid point's copies are timed on flushed data only: where
 * source and destination together outgrow the last-level cache, a cached
 * batch would be flushed data too.  Below that, a copy of many MiB can run
 * in the cache (on an Intel Xeon with a 260 MiB L3, non-temporal stores
 * from 2.2 MiB, chosen on flushed data alone, lost 1.3-1.4x to glibc on
 * such copies), so the point is timed cached and again flushed. */
static bool cold_only(size_t size)
{
	return 2 * size > tool_cache_sizes()->l3;
}

/* Buckets of the histogram format: a few exact small sizes, two buckets per
 * power of two to 64 KiB, then one per power to 32 MiB, those past the
 * last-level cache cold only (cold_only).  quick: one bucket per power,
 * every other power beyond 64 KiB.  tiny: a dozen cached ones. */
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
		grid_add(g, (size_t)1 << p, ((size_t)1 << p) + ((size_t)1 << (p - 3)) - 1, cold_only((size_t)1 << p));
}

/* A variant with code of its own at every size: not a *_mask one, whose
 * unmasked variant's curves stand for it in memset and above
 * MASKED_COPY_MAX (stand_in_curves).  Timing the same code twice would
 * only let the noise between two columns tell them apart, and costs a
 * calibration time it has not got (D31). */
static bool is_unmasked(const char *name)
{
	const struct variant *v = variant_named(name);
	return !v || variant_unmasked(v) == v;
}

/* A vector variant without a rep range (those are composed from it), with
 * code of its own above MASKED_COPY_MAX, where the later passes time. */
static bool is_vector(const char *name)
{
	const struct variant *v = variant_named(name);
	return v && v->vector_bytes && !v->rep_range && is_unmasked(name);
}

static bool any_variant(const char *name) { return (void)name, true; }

/* A vector variant, or rep movsb / rep stosb at every size: the pieces a
 * rep threshold chooses between. */
static bool is_vector_or_rep(const char *name) { return is_vector(name) || variant_named(name) == VARIANT(fsrm); }

/* The variants to time, from this program's own table: those `wanted`
 * keeps, and glibc (the baseline measure_run needs). */
static unsigned load_variants(struct measure_variant *v, unsigned *glibc, bool (*wanted)(const char *name))
{
	unsigned n = 0;
	for (unsigned i = 0; i < variant_count && n < MEASURE_MAX_VARIANTS; i++) {
		const struct variant *entry = &variant_table[i];
		bool is_glibc = entry == VARIANT(glibc);
		if (!variant_usable(entry) || variant_twin(entry) != entry || (!is_glibc && !wanted(entry->name)))
			continue;
		v[n] = measure_variant_of(entry);
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

/* Times grid point p of fn (on flushed data where `cold` or the grid
 * says so) for every variant of s into the curves named after them (with
 * `suffix`). */
static void measure_point(struct calibration *c, const struct measure_settings *s, const struct grid *g,
			  unsigned p, enum base_function fn, const char *suffix, bool cold, struct progress *bar)
{
	char detail[80];
	cold = cold || g->cold[p];
	snprintf(detail, sizeof detail, "%s curves, %zu B%s%s", base_function_names[fn], g->lo[p],
		 cold ? " cold" : "", strcmp(suffix, ":nt") == 0 ? ", non-temporal" : "");
	progress_step(bar, detail);
	struct measure_case bc = { .fn = fn, .kind = CASE_CLASS, .place = cold ? PLACE_COLD : PLACE_L1, .lo = g->lo[p],
				 .hi = g->hi[p], .src_offset = -1, .dst_offset = -1,
				 .read_back = g->lo[p] >= CALIBRATE_READ_BACK_FROM };
	struct measure_result r;
	measure_run(s, &bc, &r);
	for (unsigned v = 0; v < s->variant_count; v++) {
		char name[32];
		snprintf(name, sizeof name, "%s%s", s->variants[v].name, suffix);
		struct cm_curve *curve = &curve_slot(c, fn, name)->curve;
		curve->size[p] = r.mean_bytes;
		for (unsigned k = 0; k < s->stop.max_pairs; k++)
			curve->cost[p][k] = s->round_times[v * s->stop.max_pairs + k];
		curve->points = p + 1 > curve->points ? p + 1 : curve->points;
	}
}

/* Whether grid point p is timed again cold: from CALIBRATE_COLD_FROM on, where
 * a rep threshold can fall, up to where the grid is cold already. */
static bool retimed_cold(const struct grid *g, unsigned p) { return g->lo[p] >= CALIBRATE_COLD_FROM && !g->cold[p]; }

/* A pass after the first: which curves it times (named NAME`to`, each
 * starting as a copy of NAME`from`, glibc's too), and whether with
 * non-temporal stores (from calibrate_nt_from() on) or on flushed data (the
 * sizes retimed_cold() names). */
struct pass {
	bool (*wanted)(const char *name);
	const char *from, *to;
	bool nt, cold;
};

static bool timed_in_pass(const struct pass *pass, const struct grid *g, unsigned p)
{
	return (!pass->nt || g->lo[p] >= calibrate_nt_from()) && (!pass->cold || retimed_cold(g, p));
}

/* The copies a pass starts from. */
static void copy_curves(struct calibration *c, const struct pass *pass)
{
	size_t from_len = strlen(pass->from);
	for (unsigned i = 0, count = c->count; i < count; i++) {
		char name[32];
		size_t len = strlen(c->curves[i].name);
		if (len < from_len || strcmp(c->curves[i].name + len - from_len, pass->from) != 0)
			continue;
		snprintf(name, sizeof name, "%.*s", (int)(len - from_len), c->curves[i].name);
		if (strchr(name, ':') || (!pass->wanted(name) && strcmp(name, "glibc") != 0))
			continue;
		snprintf(name + len - from_len, sizeof name - (len - from_len), "%s", pass->to);
		curve_slot(c, c->curves[i].fn, name)->curve = c->curves[i].curve;
	}
}

/* Times a pass; the glibc copy of a non-temporal pass is no curve (glibc
 * has no such setting) and goes. */
static void measure_pass(struct calibration *c, struct measure_settings *s, struct measure_variant *variants,
			 const struct grid *g, const struct pass *pass, struct progress *bar)
{
	unsigned before = c->count;
	s->variant_count = load_variants(variants, &s->glibc, pass->wanted);
	copy_curves(c, pass);
	struct thresholds t = *s->thresholds;
	const struct thresholds *outside = s->thresholds;
	t.nt = pass->nt ? 0 : (size_t)CM_NEVER;
	s->thresholds = &t;
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (unsigned p = 0; p < g->count; p++)
			if (timed_in_pass(pass, g, p))
				measure_point(c, s, g, p, (enum base_function)fn, pass->to, pass->cold, bar);
	s->thresholds = outside;
	unsigned kept = before;
	for (unsigned i = before; i < c->count; i++)
		if (!pass->nt || strncmp(c->curves[i].name, "glibc:", 6) != 0)
			c->curves[kept++] = c->curves[i];
	c->count = kept;
}

/* The passes after the first: non-temporal stores (NAME:nt from NAME),
 * then on flushed data the cached loops and rep movsb (NAME:cold; glibc's
 * is the baseline of the cold reference workload) and non-temporal stores
 * (NAME:nt:cold from NAME:nt). */
static const struct pass passes[] = {
	{ is_vector, "", ":nt", true, false },
	{ is_vector_or_rep, "", CALIBRATE_COLD_SUFFIX, false, true },
	{ is_vector, ":nt", ":nt" CALIBRATE_COLD_SUFFIX, true, true },
};

/* Curve `suffix` of *_mask variant `entry` in fn: its unmasked variant's
 * curve of the same pass, but at the grid points where the masked code
 * runs (up to MASKED_COPY_MAX, runs_unmasked_code), which only the first
 * pass times: there `own`, that pass's curve of `entry`. */
static void stand_in_curve(struct calibration *c, const struct grid *g, enum base_function fn,
			   const struct variant *entry, const char *suffix, const struct cm_curve *own)
{
	char name[32], from_name[32];
	snprintf(name, sizeof name, "%s%s", entry->name, suffix);
	snprintf(from_name, sizeof from_name, "%s%s", variant_unmasked(entry)->name, suffix);
	const struct cm_curve *from = calibrate_curve(c, fn, from_name);
	if (!from)
		return;
	struct cm_curve *to = &curve_slot(c, fn, name)->curve;
	*to = *from;
	for (unsigned p = 0; p < own->points && !runs_unmasked_code(fn, g->lo[p]); p++) {
		to->size[p] = own->size[p];
		memcpy(to->cost[p], own->cost[p], sizeof own->cost[p]);
	}
}

/* Every curve of each *_mask variant, where is_unmasked kept it from
 * being timed. */
static void stand_in_curves(struct calibration *c, const struct grid *g)
{
	static const char *const suffixes[] = { "", ":nt", CALIBRATE_COLD_SUFFIX, (":nt" CALIBRATE_COLD_SUFFIX) };
	for (unsigned i = 0; i < variant_count; i++) {
		const struct variant *entry = &variant_table[i];
		if (variant_unmasked(entry) == entry || variant_twin(entry) != entry || !variant_usable(entry))
			continue;
		for (int fn = 0; fn < FN_COUNT; fn++) {
			const struct cm_curve *timed = calibrate_curve(c, (enum base_function)fn, entry->name);
			struct cm_curve own = timed ? *timed : (struct cm_curve){ 0 };
			for (unsigned k = 0; k < sizeof suffixes / sizeof suffixes[0]; k++)
				stand_in_curve(c, g, (enum base_function)fn, entry, suffixes[k], &own);
		}
	}
}

/* A workload of every grid size, each weighted so that it costs glibc (its
 * curve `glibc_curve`, at the sizes of its cached curve, so that every
 * placement's workload has the same buckets) the same: with no program in
 * view, each size counts as much as any other. */
static void reference_workload(const struct calibration *c, enum base_function fn, const char *glibc_curve,
			       struct cm_workload *w)
{
	const struct cm_curve *g = calibrate_curve(c, fn, glibc_curve), *cached = calibrate_curve(c, fn, "glibc");
	w->count = 0;
	for (unsigned p = 0; g && cached && p < g->points; p++)
		if (g->median[p] > 0)
			cm_workload_add(w, 1 / g->median[p], cached->size[p] / g->median[p]);
}

static void pick_thresholds(struct calibration *c)
{
	const char *why, *variant[FN_COUNT];
	for (int fn = 0; fn < FN_COUNT; fn++)
		variant[fn] = widest_vector_variant(cpu_features(), &why)->name;
	static struct cm_workload cached[FN_COUNT], cold[FN_COUNT];
	double t[T_COUNT];
	calibrate_builtin_thresholds(t);
	for (int fn = 0; fn < FN_COUNT; fn++) {
		reference_workload(c, (enum base_function)fn, "glibc", &cached[fn]);
		reference_workload(c, (enum base_function)fn, "glibc" CALIBRATE_COLD_SUFFIX, &cold[fn]);
	}
	calibrate_thresholds_cached_and_cold(c, variant, cached, cold, t);
	c->movsb = (size_t)t[T_MOVSB];
	c->stosb = (size_t)t[T_STOSB];
	c->nt = (size_t)t[T_NT];
}

/* Pairs with glibc per grid size, by level. */
static const unsigned level_pairs[] = {
	[CALIBRATE_TINY] = 3,
	[CALIBRATE_QUICK] = 4,
	[CALIBRATE_FULL] = 7,
};

const char *calibrate_level_name(unsigned rounds)
{
	static const char *const names[] = { [CALIBRATE_TINY] = "tiny", [CALIBRATE_QUICK] = "quick",
					      [CALIBRATE_FULL] = "full" };
	for (unsigned l = 0; l < sizeof level_pairs / sizeof level_pairs[0]; l++)
		if (level_pairs[l] == rounds)
			return names[l];
	return NULL;
}

static unsigned steps(const struct grid *g)
{
	unsigned points = g->count;
	for (unsigned i = 0; i < sizeof passes / sizeof passes[0]; i++)
		for (unsigned p = 0; p < g->count; p++)
			points += timed_in_pass(&passes[i], g, p);
	return FN_COUNT * points + calibrate_classes_steps();
}

static size_t largest(const struct grid *g)
{
	size_t choice = calibrate_classes_largest();
	return g->hi[g->count - 1] > choice ? g->hi[g->count - 1] : choice;
}

int calibrate_measure(struct calibration *c, enum calibration_level level)
{
	static struct measure_variant variants[MEASURE_MAX_VARIANTS];
	static double round_times[MEASURE_MAX_VARIANTS * CM_MAX_ROUNDS];
	static struct grid g;
	const struct cpu_features *f = cpu_features();
	/* no rep range and no non-temporal stores but where a pass asks; the
	 * rep range's stop is not the calibration's to choose */
	static struct thresholds never;
	never = (struct thresholds){ .movsb = (size_t)CM_NEVER, .stosb = (size_t)CM_NEVER, .nt = (size_t)CM_NEVER, .movsb_stop = config_get()->thresholds.movsb_stop };
	g.count = 0;
	make_grid(&g, level);
	unsigned pairs = level_pairs[level];
	struct measure_settings s = { .variants = variants, .cold_bytes = measure_cold_span(), .round_times = round_times,
				    .stop = { .min_pairs = pairs, .max_pairs = pairs }, .thresholds = &never };
	if (!measure_buffers_init(largest(&g), s.cold_bytes))
		return 1;
	measure_clock_open(&s.clock);
	measure_pin(s.pinning, sizeof s.pinning);
	*c = (struct calibration){ .family = f->family, .model = f->model, .rounds = pairs };
	snprintf(c->vendor, sizeof c->vendor, "%s", f->vendor);
	snprintf(c->unit, sizeof c->unit, "%s", s.clock.unit);
	snprintf(c->clock, sizeof c->clock, "%s, %s", s.clock.description, s.pinning);
	struct progress bar;
	progress_start(&bar, "memshim tune: calibrating", steps(&g));
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (unsigned p = 0; p < g.count; p++) {
			bool own_code_only = runs_unmasked_code((enum base_function)fn, g.lo[p]);
			s.variant_count = load_variants(variants, &s.glibc, own_code_only ? is_unmasked : any_variant);
			measure_point(c, &s, &g, p, (enum base_function)fn, "", false, &bar);
		}
	for (unsigned i = 0; i < sizeof passes / sizeof passes[0]; i++)
		measure_pass(c, &s, variants, &g, &passes[i], &bar);
	stand_in_curves(c, &g);
	for (unsigned i = 0; i < c->count; i++)
		cm_curve_finish(&c->curves[i].curve);
	pick_thresholds(c);
	calibrate_measure_classes(c, &s, &bar, level == CALIBRATE_TINY);
	progress_end(&bar);
	return 0;
}
