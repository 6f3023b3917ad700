/* Up to 1 KiB a candidate whose path is no longer than glibc's counts as
 * tying with it, unless it was timed far slower: there a call takes a few
 * nanoseconds, most of them the path, and the timing on a busy machine
 * spreads wider than the difference; but the same path laid out
 * differently can lose by half (D25).  The
 * calibration and memshim cpu-row --path-below-1k apply it. */
#ifndef MEMSHIM_PATH_TIES_H
#define MEMSHIM_PATH_TIES_H

#include "tools/calibrate/curves.h"

#include <stdbool.h>
#include <stddef.h>

/* Traces the path of each variant ratios[0..n) name (usable here) and of
 * glibc's function in this process, and gives every variant's ratios
 * whose path in a size class up to 1 KiB is no longer than glibc's (path_no_longer), and
 * takes no branch fewer (path_fewer_branches), a
 * tie there in every placement not timed beyond PATH_TIE_LIMIT
 * (path_ties.c); tied[i] says whether ratios i got one.  The
 * variants run with the thresholds last passed to the library
 * (measure_library_thresholds), which their ladders read above 8 vectors.
 * False, and why, when nothing could be traced (then nothing is tied). */
bool path_ties(struct band_ratios *ratios, unsigned n, bool *tied, char *why, size_t why_size);

/* Whether the first band of `choice` is the variant of tied ratios of fn. */
bool path_tied_choice(const struct band_ratios *ratios, unsigned n, const bool *tied, enum base_function fn,
		      const char *choice);

#endif
