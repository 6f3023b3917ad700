/* The model of memshim tune: what a setting (a variant or size bands, and
 * thresholds) costs a recorded workload, composed from a calibration's
 * curves, and the thresholds that cost it least. */
#ifndef MEMSHIM_CALIBRATE_MODEL_H
#define MEMSHIM_CALIBRATE_MODEL_H

#include "dispatch/bands.h"
#include "dispatch/config.h"
#include "tools/calibrate/curves.h"
#include "tools/calibrate/cost_model.h"

#include <stdbool.h>

/* The curve `name` ("avx2", "avx2:nt") of fn in c; NULL if it has none. */
const struct cm_curve *calibrate_curve(const struct calibration *c, enum base_function fn, const char *name);

/* The built-in thresholds of this CPU, the ones the library starts from. */
void calibrate_builtin_thresholds(double t[T_COUNT]);

/* The threshold a variant's rep range starts at, for fn; T_COUNT if none. */
enum threshold_name calibrate_rep_threshold(enum base_function fn, const char *variant);

/* The threshold its non-temporal stores start at (the vector variants'); T_COUNT if none. */
enum threshold_name calibrate_above_threshold(const char *variant);

/* Where non-temporal stores are timed from, and the least non-temporal
 * threshold tried: the L2's size, at least CALIBRATE_NT_FROM.  A copy that
 * fits the L2 evicts little, and there non-temporal stores lose cached more
 * than they win flushed, so no threshold there passes the dearer
 * placement (D29). */
size_t calibrate_nt_from(void);

/* A setting of every function as terms: one per band of each function
 * with calls, each band's variant on the calls of its sizes. */
#define BAND_TERMS_MAX (FN_COUNT * MAX_BANDS)
struct band_terms {
	struct cm_setting s[BAND_TERMS_MAX];
	struct cm_workload w[BAND_TERMS_MAX];
	struct cm_term t[BAND_TERMS_MAX];
	unsigned n;
};

/* The terms of setting[fn] (a variant, or bands in their text form) for
 * each function with calls in w; false if one is not a setting or a curve
 * is missing. */
bool calibrate_band_terms(const struct calibration *c, const char *const setting[FN_COUNT],
                     const struct cm_workload w[FN_COUNT], const double t[T_COUNT], struct band_terms *bt);

/* A term per function with calls in w, variant[fn] on all of its calls (its
 * setting in s[fn], the functions in fns[0..*n)); false if a curve is missing. */
bool calibrate_terms(const struct calibration *c, const char *const variant[FN_COUNT], const struct cm_workload w[FN_COUNT],
                const double t[T_COUNT], struct cm_setting *s, struct cm_term *terms, int *fns, unsigned *n);

/* The cost of fn's workload w under `variant` with thresholds t, in round
 * (or CM_MEDIAN); -1 if a curve it needs is missing. */
double calibrate_function_cost(const struct calibration *c, enum base_function fn, const char *variant,
			  const double t[T_COUNT], const struct cm_workload *w, unsigned round);

/* The best values of the thresholds t[] (in: the starting point) for
 * running each function fn with variant[fn] on workload w[fn] (functions
 * without calls are left out); the predicted total. */
double calibrate_thresholds(const struct calibration *c, const char *const variant[FN_COUNT],
		       const struct cm_workload w[FN_COUNT], double t[T_COUNT]);

/* The same, for the calibration's own reference workloads: each size
 * costs what it costs in the dearer placement of its data, cached (cached_w)
 * or flushed (cold_w, on the CALIBRATE_COLD_SUFFIX curves), so that a threshold
 * gives up a win in one rather than lose in the other: rep movsb and rep
 * stosb gain most where the destination is not in the cache, and lose
 * where it is. */
double calibrate_thresholds_cached_and_cold(const struct calibration *c, const char *const variant[FN_COUNT],
				    const struct cm_workload cached_w[FN_COUNT], const struct cm_workload cold_w[FN_COUNT],
				    double t[T_COUNT]);

#endif
