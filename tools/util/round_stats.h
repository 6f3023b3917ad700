/* bench's statistics over the rounds of one case: each variant's median
 * time, p10..p90, and its per-round ratio to the baseline's time in the
 * same round, with an interval for that ratio's median. */
#ifndef MEMSHIM_ROUND_STATS_H
#define MEMSHIM_ROUND_STATS_H

#include "tools/util/measure.h"

/* t[v][k]: variant v's time per call in round k (rounds of them), left as
 * they are; into r's median, p10, p90, ratio, ratio_low and ratio_high. */
void bench_summarise(const struct bench_settings *s, unsigned rounds, const double t[][BENCH_MAX_ROUNDS],
		     struct bench_result *r);

#endif
