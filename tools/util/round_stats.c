#include "tools/util/round_stats.h"

#include "tools/util/quantile.h"

#include <math.h>
#include <string.h>

/* The ranks of sorted v[0..n) that bound its median with about 95%
 * confidence: the number of values below the median is binomial(n, 1/2),
 * so n/2 -+ 1.96 sqrt(n)/2 ranks. */
static void median_interval(const double *sorted, unsigned n, double *low, double *high)
{
	double half = 0.98 * sqrt((double)n);
	int lo = (int)floor(n / 2.0 - half), hi = (int)ceil(n / 2.0 + half) - 1;
	*low = sorted[lo < 0 ? 0 : lo];
	*high = sorted[hi >= (int)n ? n - 1 : (unsigned)hi];
}

/* The quantiles sort a copy: the baseline's times must stay in round order
 * for every variant's ratios.  Sorting them in place once paired each
 * variant's rounds with the baseline's sorted ones, and intervals such as
 * 0.60x (0.03..0.75) came out. */
void bench_summarise(const struct bench_settings *s, unsigned rounds, const double t[][BENCH_MAX_ROUNDS],
		     struct bench_result *r)
{
	double ratio[BENCH_MAX_ROUNDS], times[BENCH_MAX_ROUNDS];
	const double *base = t[s->glibc];
	for (unsigned v = 0; v < s->variant_count; v++) {
		/* Per-round ratios: a slow spell that hits one round hits every variant in it. */
		for (unsigned k = 0; k < rounds; k++)
			ratio[k] = base[k] > 0 ? t[v][k] / base[k] : 1;
		r->ratio[v] = quantile(ratio, rounds, 0.5); /* sorts ratio */
		median_interval(ratio, rounds, &r->ratio_low[v], &r->ratio_high[v]);
		memcpy(times, t[v], rounds * sizeof times[0]);
		r->median[v] = quantile(times, rounds, 0.5);
		r->p10[v] = quantile(times, rounds, 0.1);
		r->p90[v] = quantile(times, rounds, 0.9);
	}
}
