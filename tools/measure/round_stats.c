#include "tools/measure/round_stats.h"

#include "tools/util/quantile.h"

#include <math.h>
#include <stdlib.h>
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

/* The quantiles sort copies: the baseline's times stay in round order for
 * every variant's ratios.  Sorting them in place once paired the rounds of
 * the variants after the baseline with its sorted times, and intervals
 * far wider than the rounds' spread came out. */
struct round_summary round_summarise(const double *t, const double *base, unsigned rounds)
{
	struct round_summary s = { 0 };
	double *ratio = malloc(2 * (rounds ? rounds : 1) * sizeof *ratio), *times = ratio + rounds;
	if (!ratio || !rounds) {
		free(ratio);
		return s;
	}
	/* Per-round ratios: a slow spell that hits one round hits every variant in it. */
	for (unsigned k = 0; k < rounds; k++)
		ratio[k] = !base ? t[k] : base[k] > 0 ? t[k] / base[k] : 1;
	s.ratio = quantile(ratio, rounds, 0.5); /* sorts ratio */
	median_interval(ratio, rounds, &s.ratio_low, &s.ratio_high);
	memcpy(times, t, rounds * sizeof *times);
	s.median = quantile(times, rounds, 0.5);
	s.p10 = quantile(times, rounds, 0.1);
	s.p90 = quantile(times, rounds, 0.9);
	free(ratio);
	return s;
}
