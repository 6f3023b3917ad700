/* What timed calls (MEMSHIM_TIMING) say: ns per call with a 95% interval,
 * for a function's size bucket, size class or all of it.
 *
 * The timed calls are a random sample of the calls (one in N, the gaps
 * drawn at random), so the mean of their times estimates the mean of all
 * the calls in the same sizes, and its interval is Student's t on the
 * sample's spread (from the sums of the times and of their squares in the
 * dump).  The interval says how well the timed calls pin the mean; not how
 * a timed call's time differs from an untimed one (D36). */
#ifndef MEMSHIM_TIMING_STATS_H
#define MEMSHIM_TIMING_STATS_H

#include "dump/format.h"

#include <stdbool.h>

struct timed_ns {
	double calls;           /* timed calls kept */
	double dropped;         /* timed calls left out as interrupted */
	double mean, low, high; /* ns per call and its 95% interval (low == high with one call) */
};

/* The timed calls of fn on sizes [lo, hi); false when there are none. */
bool timing_range(const struct dump_timing *t, enum base_function fn, uint64_t lo, uint64_t hi, struct timed_ns *out);

/* The same for every size of fn. */
bool timing_fn(const struct dump_timing *t, enum base_function fn, struct timed_ns *out);

/* The ns fn's calls on sizes [lo, hi) took in all, from the timed ones:
 * each size class's calls (from the histogram) times its timed ns per call;
 * a class with calls and no timed one takes fn's mean.  0 when fn has no
 * timed call. */
double timing_total_ns(const struct dump *d, enum base_function fn, uint64_t lo, uint64_t hi);
/* Bounds of fn's total over every size: each class's calls times the ends
 * of its timed ns per call's 95% interval. */
void timing_total_interval(const struct dump *d, enum base_function fn, double *low, double *high);

/* ns per call over the three functions' calls on sizes [lo, hi), estimated
 * stratum by stratum (function and size class: each stratum's calls, from
 * the histogram, times its timed mean), which the random share of each
 * stratum among the timed calls then does not shake; a stratum with calls
 * and no timed one takes the mean of every timed call on those sizes.  0
 * when none was timed. */
double timing_per_call(const struct dump *d, uint64_t lo, uint64_t hi);

/* The timer's cost subtracted, in ns per timed call (over every process). */
double timing_overhead_ns(const struct dump_timing *t);

/* fn's recorded time in ns: its timed calls' total, else the profile's
 * time inside it; 0 without either. */
double recorded_ns(const struct dump *d, enum base_function fn);

#endif
