/* The path engine (path_trace.c): instructions executed and branches taken
 * by one call of every size up to PATH_MAX_SIZE, for each variant and
 * function.  The path, not its timing: the same on any CPU that runs the
 * same code. */
#ifndef MEMSHIM_PATH_TRACE_H
#define MEMSHIM_PATH_TRACE_H

#include "tools/measure/measure.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PATH_MAX_SIZE 1024
#define PATH_SIZES (PATH_MAX_SIZE + 1)
#define PATH_WHY_MAX 256

/* A call's path: instructions executed, counting the program's call and
 * its PLT jump (2) and the function's own ret, and jumps taken inside the
 * function (neither the call, the PLT jump nor the ret). */
struct path {
	unsigned instructions, taken;
};

/* The size classes the paths are compared in: (top[k-1], top[k]], the
 * first from 0. */
#define PATH_CLASS_COUNT 7
extern const size_t path_class_top[PATH_CLASS_COUNT];
extern const char *const path_class_label[PATH_CLASS_COUNT];

/* How many instructions more than glibc's a path of ours may run in a
 * class and still count as no longer (tests/test_path.sh holds every
 * vector variant to it). */
#define PATH_EXTRA_INSTRUCTIONS 3

/* How many taken branches a call fewer than glibc's, on the mean over a
 * class, make a path of another shape rather than a tie
 * (path_fewer_branches; tests/path_ties_check.py holds the same). */
#define PATH_FEWER_BRANCHES 0.5

/* The paths of every size of each of the `count` variants, for the
 * functions in the mask `functions` (1 << FN_MEMCPY, ...), traced in a
 * child process; path_of() finds one.  NULL, and why, when it cannot. */
struct path *path_trace(const struct measure_variant *v, unsigned count, unsigned functions, char *why, size_t why_size);
void path_free(struct path *paths, unsigned count);

/* The function of v that fn is (0 where v has none). */
uintptr_t path_function(const struct measure_variant *v, int fn);

/* Variant `variant`'s paths of fn, sizes 0..PATH_MAX_SIZE. */
struct path *path_of(struct path *paths, unsigned variant, int fn);

/* The mean instructions and taken branches over class k's sizes. */
void path_class_mean(const struct path *p, unsigned k, double *instructions, double *taken);

/* Whether `ours` takes no more branches than `theirs` and runs at most
 * PATH_EXTRA_INSTRUCTIONS more in every class within [lo, hi]. */
bool path_no_longer(const struct path *ours, const struct path *theirs, size_t lo, size_t hi);

/* Whether `ours` takes at least PATH_FEWER_BRANCHES taken branches a call
 * fewer than `theirs` in some class within [lo, hi]: a path of another
 * shape, not a tie. */
bool path_fewer_branches(const struct path *ours, const struct path *theirs, size_t lo, size_t hi);

#endif
