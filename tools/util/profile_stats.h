/* What a profile says about time: shares of the process's CPU time with
 * a 95% interval, for a function, a size bucket or a call site.
 *
 * A sample is one timer signal; the samples inside a function, out of all
 * the samples the process's CPU time stands for, are a binomial count, so
 * the interval is Wilson's score interval on that count.  The point
 * estimate is the function's CPU ns over the process's CPU ns. */
#ifndef MEMSHIM_PROFILE_STATS_H
#define MEMSHIM_PROFILE_STATS_H

#include "dump/format.h"

#include <stdbool.h>

struct cpu_share {
	double share, low, high; /* fractions of the process's CPU time, 0..1 */
	double ns;               /* CPU time inside, in ns */
	double low_ns, high_ns;  /* the interval, in ns */
	uint64_t samples;        /* what it rests on */
};

/* The share of `samples` samples standing for `ns` ns; false when the
 * dump has no profile or no CPU time to share. */
bool profile_share(const struct dump_profile *p, uint64_t samples, uint64_t ns, struct cpu_share *out);

/* The same for a whole function. */
bool profile_fn_share(const struct dump_profile *p, enum base_function fn, struct cpu_share *out);

/* Wilson's 95% score interval for k successes in n trials, as fractions. */
void profile_interval(double k, double n, double *low, double *high);

/* The samples a profile's CPU time stands for, counting threads the timer never ran in. */
double profile_sample_space(const struct dump_profile *p);

/* The samples a second of sampled CPU time the profile took: below the rate
 * asked for where the kernel's timer tick caps it (250 a second at 250 Hz). */
double profile_rate_taken(const struct dump_profile *p);

#endif
