#include "tools/calibrate/cost_model.h"

#include <math.h>
#include "tools/util/quantile.h"

#include "dump/counts.h"

#include <stdint.h>
#include <stdlib.h>

void cm_curve_finish(struct cm_curve *c)
{
	double v[CM_MAX_ROUNDS];
	for (unsigned p = 0; p < c->points; p++) {
		for (unsigned r = 0; r < c->rounds; r++)
			v[r] = c->cost[p][r];
		c->median[p] = quantile(v, c->rounds, 0.5);
	}
}

static double point(const struct cm_curve *c, unsigned p, unsigned round)
{
	return round == CM_MEDIAN ? c->median[p] : c->cost[p][round % c->rounds];
}

double cm_cost_at(const struct cm_curve *c, double size, unsigned round)
{
	unsigned last = c->points - 1;
	if (size <= c->size[0])
		return point(c, 0, round);
	if (size >= c->size[last]) /* beyond the grid: bandwidth-bound, cost per byte fixed */
		return point(c, last, round) * (c->size[last] > 0 ? size / c->size[last] : 1);
	unsigned hi = 1;
	while (c->size[hi] < size)
		hi++;
	double x0 = c->size[hi - 1], x1 = c->size[hi];
	double y0 = point(c, hi - 1, round), y1 = point(c, hi, round);
	return y0 + (y1 - y0) * (size - x0) / (x1 - x0);
}

struct cm_setting cm_fixed(const struct cm_curve *c)
{
	return (struct cm_setting){ .below = c, .band_from = CM_NEVER, .above_from = CM_NEVER, .floor = -1 };
}

double cm_setting_cost(const struct cm_setting *s, double size, unsigned round)
{
	const struct cm_curve *c = s->below;
	if (size > s->floor) {
		if (s->above && size >= s->above_from)
			c = s->above;
		else if (s->band && size >= s->band_from)
			c = s->band;
	}
	return cm_cost_at(c, size, round);
}

void cm_workload_add(struct cm_workload *w, double calls, double bytes)
{
	if (calls <= 0 || w->count == CM_MAX_BUCKETS)
		return;
	w->size[w->count] = bytes / calls;
	w->calls[w->count++] = calls;
}

double cm_total(const struct cm_setting *s, const struct cm_workload *w, unsigned round)
{
	double total = 0;
	for (unsigned b = 0; b < w->count; b++)
		total += w->calls[b] * cm_setting_cost(s, w->size[b], round);
	return total;
}

double cm_sum(const struct cm_term *t, unsigned n, unsigned round)
{
	double sum = 0;
	for (unsigned i = 0; i < n; i++)
		sum += cm_total(t[i].setting, t[i].workload, round) + t[i].extra;
	return sum;
}

double cm_worst_placement_sum(const struct cm_term *a, const struct cm_term *b, unsigned n)
{
	double sum = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct cm_workload *wa = a[i].workload, *wb = b[i].workload;
		for (unsigned k = 0; k < wa->count && k < wb->count; k++)
			sum += fmax(wa->calls[k] * cm_setting_cost(a[i].setting, wa->size[k], CM_MEDIAN),
				    wb->calls[k] * cm_setting_cost(b[i].setting, wb->size[k], CM_MEDIAN));
	}
	return sum;
}

double cm_best_value(cm_objective *objective, const void *context, double *const *fields, unsigned field_count,
		     const double *candidates, unsigned candidate_count)
{
	double start = *fields[0], best = start;
	for (unsigned f = 0; f < field_count; f++)
		*fields[f] = best;
	double start_sum = objective(context), best_sum = start_sum;
	for (unsigned c = 0; c < candidate_count; c++) {
		for (unsigned f = 0; f < field_count; f++)
			*fields[f] = candidates[c];
		double sum = objective(context);
		if (sum < best_sum) {
			best = candidates[c];
			best_sum = sum;
		}
	}
	if (best_sum > start_sum * (1 - CM_KEEP_MARGIN)) { /* no gain beyond the margin: the value stays */
		best = start;
		best_sum = start_sum;
	}
	for (unsigned f = 0; f < field_count; f++)
		*fields[f] = best;
	return best_sum;
}

struct terms {
	const struct cm_term *t;
	unsigned n;
};

static double median_sum(const void *context)
{
	const struct terms *t = context;
	return cm_sum(t->t, t->n, CM_MEDIAN);
}

double cm_best_threshold(const struct cm_term *t, unsigned n, double *const *fields, unsigned field_count,
			 const double *candidates, unsigned candidate_count)
{
	const struct terms context = { t, n };
	return cm_best_value(median_sum, &context, fields, field_count, candidates, candidate_count);
}

/* The first size above n in another bucket (hist_bucket is monotone). */
static double next_boundary(uint64_t n)
{
	uint64_t lo = n + 1, hi = 2 * n + 2; /* buckets are never wider than n + 1 */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (hist_bucket(mid) != hist_bucket(n))
			hi = mid;
		else
			lo = mid + 1;
	}
	return (double)lo;
}

unsigned cm_threshold_candidates(double *out, unsigned max)
{
	unsigned n = 0;
	for (double size = 1; size <= (64u << 20) && n + 1 < max; size = next_boundary((uint64_t)size))
		out[n++] = size;
	out[n++] = CM_NEVER;
	return n;
}

static struct cm_spread spread_of(double *v, unsigned n)
{
	return (struct cm_spread){ quantile(v, n, 0.5), quantile(v, n, 0.1), quantile(v, n, 0.9) };
}

struct cm_spread cm_sum_spread(const struct cm_term *t, unsigned n, unsigned rounds)
{
	double v[CM_MAX_ROUNDS];
	for (unsigned r = 0; r < rounds; r++)
		v[r] = cm_sum(t, n, r);
	return spread_of(v, rounds);
}

struct cm_spread cm_saving_spread(const struct cm_term *t, unsigned n, const struct cm_term *base, unsigned base_n,
				  unsigned rounds)
{
	double v[CM_MAX_ROUNDS];
	for (unsigned r = 0; r < rounds; r++) {
		double b = cm_sum(base, base_n, r);
		v[r] = b > 0 ? (b - cm_sum(t, n, r)) / b : 0;
	}
	return spread_of(v, rounds);
}
