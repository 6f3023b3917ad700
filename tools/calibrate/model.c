/* The model of memshim tune: what a setting (a variant or size bands, and
 * thresholds) costs a recorded workload, composed from a calibration's
 * measured curves (tools/calibrate/cost_model.h) the way each variant's code
 * chooses its pieces by size; and the thresholds that cost it least.  Both
 * tune's prediction and the calibration (picking the thresholds of the
 * calibration file) ask it. */
#include "tools/calibrate/model.h"

#include "dispatch/builtin.h"
#include "dispatch/cpu_features.h"
#include "tools/measure/caches.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const struct cm_curve *calibrate_curve(const struct calibration *c, enum base_function fn, const char *name)
{
	for (unsigned i = 0; i < c->count; i++)
		if (c->curves[i].fn == fn && strcmp(c->curves[i].name, name) == 0)
			return &c->curves[i].curve;
	return NULL;
}

void calibrate_builtin_thresholds(double t[T_COUNT])
{
	struct thresholds builtin;
	builtin_thresholds(cpu_features(), &builtin);
	t[T_MOVSB] = (double)builtin.movsb;
	t[T_STOSB] = (double)builtin.stosb;
	t[T_NT] = (double)builtin.nt;
}

/* Bytes per vector of a vector variant ("avx2", "avx2_erms"); 0 for others. */
static unsigned vector_width(const char *variant)
{
	const struct variant *v = variant_named(variant);
	return v ? v->vector_bytes : 0;
}

static bool has_band(const char *variant)
{
	const struct variant *v = variant_named(variant);
	return v && v->rep_range;
}

/* The threshold a variant's rep range starts at, for fn (erms's and the
 * *_erms variants' alike); T_COUNT if none. */
enum threshold_name calibrate_rep_threshold(enum base_function fn, const char *variant)
{
	if (!has_band(variant))
		return T_COUNT;
	return fn == FN_MEMSET ? T_STOSB : T_MOVSB;
}

enum threshold_name calibrate_above_threshold(const char *variant)
{
	return vector_width(variant) ? T_NT : T_COUNT;
}

/* The setting `variant` with thresholds t makes of fn's curves: how the
 * variant's code chooses its pieces by size.  `placed` names the
 * placement of the data the curves were timed in ("", or CALIBRATE_COLD_SUFFIX
 * for flushed).  False if a curve is missing. */
static bool compose_placed(const struct calibration *c, enum base_function fn, const char *variant,
			   const char *placed, const double t[T_COUNT], struct cm_setting *s)
{
	unsigned width = vector_width(variant);
	enum threshold_name band = calibrate_rep_threshold(fn, variant);
	char below[32], rep[32], nt[32];
	/* the measured curve: the variant without its rep range ("avx2_xmm_erms" -> "avx2_xmm") */
	const struct variant *entry = variant_named(variant);
	const char *base = width && entry ? variant_twin(entry)->name : variant;
	snprintf(below, sizeof below, "%s%s", base, placed);
	snprintf(rep, sizeof rep, "fsrm%s", placed); /* rep movsb / rep stosb */
	snprintf(nt, sizeof nt, "%s:nt%s", base, placed);
	*s = cm_fixed(calibrate_curve(c, fn, below));
	if (band != T_COUNT) {
		s->band = calibrate_curve(c, fn, rep);
		s->band_from = t[band];
	}
	if (width) {
		s->above = calibrate_curve(c, fn, nt);
		s->above_from = t[T_NT];
		s->floor = 8.0 * width; /* up to 8 vectors: the short-copy code, always */
	}
	return s->below && (band == T_COUNT || s->band) && (!width || s->above);
}

static bool compose(const struct calibration *c, enum base_function fn, const char *variant,
		    const double t[T_COUNT], struct cm_setting *s)
{
	return compose_placed(c, fn, variant, "", t, s);
}

/* The buckets of w whose mean size is in (lo, hi]. */
static void workload_part(const struct cm_workload *w, double lo, double hi, struct cm_workload *out)
{
	out->count = 0;
	for (unsigned i = 0; i < w->count; i++)
		if (w->size[i] > lo && w->size[i] <= hi) {
			out->size[out->count] = w->size[i];
			out->calls[out->count++] = w->calls[i];
		}
}

/* Adds fn's terms under `setting` (a variant, or bands in their text
 * form) to bt; false if it is not one or a curve is missing. */
static bool add_band_terms(const struct calibration *c, enum base_function fn, const char *setting,
			   const struct cm_workload *w, const double t[T_COUNT], struct band_terms *bt)
{
	struct band_list bands;
	if (band_list_parse(setting, &bands))
		return false;
	double lo = -1;
	for (unsigned b = 0; b < bands.count; b++) {
		double hi = b + 1 < bands.count ? (double)bands.upper[b] : HUGE_VAL;
		workload_part(w, lo, hi, &bt->w[bt->n]);
		lo = hi;
		if (!compose(c, fn, bands.variant[b]->name, t, &bt->s[bt->n]))
			return false;
		bt->t[bt->n] = (struct cm_term){ &bt->s[bt->n], &bt->w[bt->n], 0 };
		bt->n++;
	}
	return true;
}

bool calibrate_band_terms(const struct calibration *c, const char *const setting[FN_COUNT],
		     const struct cm_workload w[FN_COUNT], const double t[T_COUNT], struct band_terms *bt)
{
	bt->n = 0;
	for (int fn = 0; fn < FN_COUNT; fn++)
		if (w[fn].count && !add_band_terms(c, (enum base_function)fn, setting[fn], &w[fn], t, bt))
			return false;
	return true;
}

double calibrate_function_cost(const struct calibration *c, enum base_function fn, const char *setting,
			  const double t[T_COUNT], const struct cm_workload *w, unsigned round)
{
	static struct band_terms bt;
	bt.n = 0;
	return add_band_terms(c, fn, setting, w, t, &bt) ? cm_sum(bt.t, bt.n, round) : -1;
}

/* The fields of the settings that follow threshold t. */
static unsigned fields_of(enum threshold_name t, const char *const variant[FN_COUNT], struct cm_setting *s,
			  const int *fns, unsigned n, double **fields)
{
	unsigned k = 0;
	for (unsigned i = 0; i < n; i++) {
		if (calibrate_rep_threshold((enum base_function)fns[i], variant[fns[i]]) == t)
			fields[k++] = &s[fns[i]].band_from;
		if (calibrate_above_threshold(variant[fns[i]]) == t)
			fields[k++] = &s[fns[i]].above_from;
	}
	return k;
}

/* Builds a term per function with calls, from the curves `placed` names;
 * false if a curve is missing. */
static bool terms_placed(const struct calibration *c, const char *const variant[FN_COUNT],
			 const struct cm_workload w[FN_COUNT], const double t[T_COUNT], const char *placed,
			 struct cm_setting *s, struct cm_term *terms, int *fns, unsigned *n)
{
	*n = 0;
	for (int fn = 0; fn < FN_COUNT; fn++) {
		if (!w[fn].count)
			continue;
		if (!compose_placed(c, (enum base_function)fn, variant[fn], placed, t, &s[fn]))
			return false;
		terms[*n] = (struct cm_term){ &s[fn], &w[fn], 0 };
		fns[(*n)++] = fn;
	}
	return true;
}

bool calibrate_terms(const struct calibration *c, const char *const variant[FN_COUNT],
		const struct cm_workload w[FN_COUNT], const double t[T_COUNT], struct cm_setting *s,
		struct cm_term *terms, int *fns, unsigned *n)
{
	return terms_placed(c, variant, w, t, "", s, terms, fns, n);
}

/* The terms of one placement of the data: its settings and workloads. */
struct placed_terms {
	struct cm_setting s[FN_COUNT];
	struct cm_term terms[FN_COUNT];
	int fns[FN_COUNT];
	unsigned n;
};

static double worst_placement(const void *context)
{
	const struct placed_terms *p = context;
	return cm_worst_placement_sum(p[0].terms, p[1].terms, p[0].n);
}

size_t calibrate_nt_from(void)
{
	size_t l2 = tool_cache_sizes()->l2;
	return l2 > CALIBRATE_NT_FROM ? l2 : CALIBRATE_NT_FROM;
}

/* The candidates for threshold th: all (from), or for non-temporal stores
 * those from calibrate_nt_from() on. */
static unsigned candidates_for(int th, const double *all, unsigned count, const double **from)
{
	unsigned first = 0;
	while (th == T_NT && first < count && all[first] < calibrate_nt_from())
		first++;
	*from = all + first;
	return count - first;
}

/* Each threshold in turn set to its best value given the others; three
 * passes, since a shared threshold (NT for every vector variant, erms for
 * memcpy and memmove) moves the best value of the others little.  With two
 * placements (p[1] cold) each size costs what its dearer placement does. */
static double best_thresholds(struct placed_terms *p, unsigned count, const char *const variant[FN_COUNT],
			      double t[T_COUNT])
{
	static double all[512];
	unsigned all_count = cm_threshold_candidates(all, 512);
	for (int pass = 0; pass < 3; pass++)
		for (int th = 0; th < T_COUNT; th++) {
			double *fields[2 * 2 * FN_COUNT];
			unsigned k = 0;
			for (unsigned i = 0; i < count; i++)
				k += fields_of((enum threshold_name)th, variant, p[i].s, p[i].fns, p[i].n, fields + k);
			const double *candidates;
			unsigned candidate_count = candidates_for(th, all, all_count, &candidates);
			if (!k)
				continue;
			if (count == 2)
				cm_best_value(worst_placement, p, fields, k, candidates, candidate_count);
			else
				cm_best_threshold(p[0].terms, p[0].n, fields, k, candidates, candidate_count);
			t[th] = *fields[0];
		}
	return cm_sum(p[0].terms, p[0].n, CM_MEDIAN);
}

double calibrate_thresholds(const struct calibration *c, const char *const variant[FN_COUNT],
		       const struct cm_workload w[FN_COUNT], double t[T_COUNT])
{
	static struct placed_terms cached;
	if (!terms_placed(c, variant, w, t, "", cached.s, cached.terms, cached.fns, &cached.n))
		return -1;
	return best_thresholds(&cached, 1, variant, t);
}

double calibrate_thresholds_cached_and_cold(const struct calibration *c, const char *const variant[FN_COUNT],
				    const struct cm_workload cached_w[FN_COUNT], const struct cm_workload cold_w[FN_COUNT],
				    double t[T_COUNT])
{
	static struct placed_terms p[2];
	if (!terms_placed(c, variant, cached_w, t, "", p[0].s, p[0].terms, p[0].fns, &p[0].n) ||
	    !terms_placed(c, variant, cold_w, t, CALIBRATE_COLD_SUFFIX, p[1].s, p[1].terms, p[1].fns, &p[1].n))
		return -1;
	return best_thresholds(p, 2, variant, t);
}
