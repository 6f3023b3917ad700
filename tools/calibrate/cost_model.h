/* The cost model of memshim tune: what a setting (a variant and its
 * thresholds) would cost a recorded workload on this machine.
 *
 * A curve is a cost per call (cycles or ns) measured at a grid of sizes,
 * once per round; between grid points the cost is interpolated linearly in
 * the size, and above the last one it grows in proportion to the size (large
 * copies run at a fixed bandwidth).  A setting composes up to three curves
 * by size, the way the variants choose between their pieces: erms is its
 * scalar part below its threshold and rep movsb above; a vector variant is
 * its cached loop, rep movsb from the rep range's threshold and non-temporal
 * stores from the NT threshold.  A workload's expected time is
 *
 *     total = sum over buckets of calls x cost(setting, mean size of the bucket)
 *
 * computed once with the median curves (the estimate) and once per round
 * (the spread: a round's curves were measured together, interleaved). */
#ifndef MEMSHIM_COST_MODEL_H
#define MEMSHIM_COST_MODEL_H

#include <stdbool.h>

#define CM_MAX_POINTS 80
#define CM_MAX_ROUNDS 32
#define CM_MEDIAN (~0u) /* as a round: the median over the rounds */
#define CM_NEVER 1099511627776.0 /* 1 TiB: a threshold never reached */

struct cm_curve {
	unsigned points, rounds;
	double size[CM_MAX_POINTS]; /* ascending */
	double cost[CM_MAX_POINTS][CM_MAX_ROUNDS];
	double median[CM_MAX_POINTS]; /* set by cm_curve_finish */
};

/* Computes the median costs once every round is in. */
void cm_curve_finish(struct cm_curve *c);

/* The cost of one call of `size` bytes in `round` (or CM_MEDIAN). */
double cm_cost_at(const struct cm_curve *c, double size, unsigned round);

/* How a setting picks a curve for a size: sizes up to `floor` always take
 * `below` (vector code never leaves its short-copy path there); otherwise
 * `above` from above_from on, else `band` from band_from on, else `below`.
 * band and above may be NULL. */
struct cm_setting {
	const struct cm_curve *below, *band, *above;
	double band_from, above_from, floor;
};

/* A setting that is one curve at every size. */
struct cm_setting cm_fixed(const struct cm_curve *c);

double cm_setting_cost(const struct cm_setting *s, double size, unsigned round);

/* A workload: calls per bucket and each bucket's mean size (bytes / calls). */
#define CM_MAX_BUCKETS 512
struct cm_workload {
	unsigned count;
	double size[CM_MAX_BUCKETS], calls[CM_MAX_BUCKETS];
};

/* Adds a bucket with `calls` calls moving `bytes` bytes; empty ones are skipped. */
void cm_workload_add(struct cm_workload *w, double calls, double bytes);

double cm_total(const struct cm_setting *s, const struct cm_workload *w, unsigned round);

/* A setting applied to a workload: tune sums terms over the functions. */
struct cm_term {
	struct cm_setting *setting;
	const struct cm_workload *workload;
	/* A cost on top of the curves', the same in every round: one they
	 * cannot see, as the 4 KiB-aliasing hazard (the curves copy away from it). */
	double extra;
};

double cm_sum(const struct cm_term *t, unsigned n, unsigned round);

/* Tries every candidate as the value of the threshold that the settings'
 * fields[0..field_count) hold (band_from or above_from of some of them: one
 * variable shared by several functions) and leaves them at the one with the
 * least median sum, which it returns.  The value in *fields[0] is kept
 * unless a candidate does better by more than CM_KEEP_MARGIN (below; a
 * threshold the workload never reaches stays where it was); among equal
 * candidates the first wins. */
double cm_best_threshold(const struct cm_term *t, unsigned n, double *const *fields, unsigned field_count,
			 const double *candidates, unsigned candidate_count);

/* The same search for any objective: the value of the fields that makes
 * objective(context) least, where that is more than CM_KEEP_MARGIN below
 * what the value they start from makes it; else that value.  Where the
 * objective is flat, the value then stays put instead of following the
 * noise, as memset's threshold did where its loop and rep stosb cost the
 * same to a few per cent (D28). */
#define CM_KEEP_MARGIN 0.01
typedef double cm_objective(const void *context);
double cm_best_value(cm_objective *objective, const void *context, double *const *fields, unsigned field_count,
		     const double *candidates, unsigned candidate_count);

/* The median cost of two placements of the same workloads (a[i] and b[i]
 * have the same buckets, each weighted in its own placement), each bucket
 * counted at its dearer placement: a threshold chosen on it gives up a win
 * in one placement rather than lose in the other. */
double cm_worst_placement_sum(const struct cm_term *a, const struct cm_term *b, unsigned n);

/* The thresholds worth trying: every bucket boundary of the histogram
 * format (dump/counts.h) from 1 B to 64 MiB, then CM_NEVER.  Returns how
 * many (at most max). */
unsigned cm_threshold_candidates(double *out, unsigned max);

/* The median, p10 and p90 over the rounds of the per-round sums of t, and
 * of the per-round saving of t against base as a fraction of base's sum.
 * The median is the estimate to print beside the interval: it comes from
 * the same per-round values, so it always lies inside it (a sum over the
 * median curves need not: each size's median may come from another round). */
struct cm_spread {
	double median, p10, p90;
};
struct cm_spread cm_sum_spread(const struct cm_term *t, unsigned n, unsigned rounds);
struct cm_spread cm_saving_spread(const struct cm_term *t, unsigned n, const struct cm_term *base, unsigned base_n,
				  unsigned rounds);

#endif
