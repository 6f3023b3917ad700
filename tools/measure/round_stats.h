/* bench's statistics over the rounds of one case, for one variant: its
 * median time and p10..p90, and the median of its per-round ratio to the
 * baseline's time in the same round, with an interval for that median. */
#ifndef MEMSHIM_ROUND_STATS_H
#define MEMSHIM_ROUND_STATS_H

struct round_summary {
	double median, p10, p90;        /* of the times */
	double ratio, ratio_low, ratio_high; /* of the per-round ratios: median, about 95% */
};

/* t[k] and base[k]: the variant's and the baseline's time in round k, of
 * rounds, left as they are (zeros if rounds is 0 or no memory); base NULL:
 * t[k] are the rounds' ratios themselves (ab --in-process's pairs). */
struct round_summary round_summarise(const double *t, const double *base, unsigned rounds);

#endif
