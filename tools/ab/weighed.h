/* memshim ab --in-process's headline: B's time against A's for a function
 * (or several), its size classes weighed by A's time.  A median over all
 * pairs of blocks lets the many pairs that hold only cheap calls decide,
 * though the few that hold the costly calls are where the time goes; here
 * each class speaks by its own pairs and counts by its share of the time. */
#ifndef MEMSHIM_AB_WEIGHED_H
#define MEMSHIM_AB_WEIGHED_H

#include "dump/format.h"

#include <stddef.h>
#include <stdint.h>

/* Resamples of the pairs for the interval, and their generator's seed:
 * fixed, so that one dump always reads the same. */
#define AB_WEIGHED_RESAMPLES 1000
#define AB_WEIGHED_SEED 0x61ab61ab61ab61abull

struct ab_weighed {
	double ratio, low, high; /* sum of w_c r_c; its 95% interval; 0 where no class has pairs */
	unsigned pairs;          /* pairs that hold a weighed class in both arms */
	unsigned classes;        /* the classes weighed */
};

/* One pair's ratio in function fn and size class k: B's ns per call
 * against A's; -1 where the pair did not call it in both arms (or A's
 * calls took no time). */
double ab_pair_ratio(const struct ab_pair *p, int fn, unsigned k);

/* Over the functions in fns (a bit each) and their size classes: each
 * class's ratio r_c the median, over the pairs that called it in both
 * arms, of B's ns per call against A's; its weight w_c its share of A's
 * ns in all pairs, among the classes that have such pairs (a class no
 * pair holds in both arms is left out).  The interval: the 2.5% and 97.5%
 * quantiles of the same over `resamples` resamples of the pairs (with
 * replacement), drawn from `seed`. */
struct ab_weighed ab_weigh_classes(const struct ab_pair *pairs, size_t count, unsigned fns, unsigned resamples,
                                   uint64_t seed);

/* The line under the table: what B would change of the runs' CPU time,
 * had every call taken B's time: `share`, the calls' share of it at A's
 * time per call, times 1 - B/A, with the interval [low, high] of B/A, in
 * the words of ab's one rule on that interval (paired_verdict_of): a
 * saving only where B is faster, an addition where slower.  `no_verdict`
 * (not NULL: "too few pairs", "runs disagree") gives the reason instead
 * of any figure, since the interval it would rest on does not hold. */
void ab_saving_text(double share, double ratio, double low, double high, const char *no_verdict, char *out,
                    size_t size);

#endif
