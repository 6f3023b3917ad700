/* Units and shares, for the outputs of report, tune, ab and bench: sizes and
 * durations for people, the size classes and the sums over them, and the
 * title naming the programs. */
#ifndef MEMSHIM_UNITS_SHARES_H
#define MEMSHIM_UNITS_SHARES_H

#include "dump/format.h"

#include <stddef.h>
#include <stdint.h>

/* The size classes (dump/size_classes.h), [lo, hi), and one for the
 * sizes beyond them.  A histogram bucket counts in the class that holds its
 * smallest size: the buckets' bounds are powers of two and eighths of them,
 * so a class also counts the sizes up to 1/8 past its upper bound (17-64 B
 * counts 17-71 B: 64, the common size, is in its class). */
struct size_class {
	const char *name;
	uint64_t lo, hi;
};
extern const struct size_class size_classes[];
extern const unsigned size_class_count;

/* The sums of a per-bucket table over the size classes. */
void sum_by_class(const uint64_t *per_bucket, uint64_t *per_class);

/* A size as "512 B", "1.6 KiB", "120 KiB", "2 MiB". */
const char *human_size(uint64_t n, char *buf, size_t size);

/* A time in ns as "0.8 ms", "1.4 s", "350 us": the unit that puts it at 1 or more. */
const char *human_duration(double ns, char *buf, size_t size);

uint64_t sum_buckets(const uint64_t *counts);

/* The same from the bucket of `size` on (the buckets of sizes from it, where
 * size is a bucket's first, as 2 KiB is). */
uint64_t sum_buckets_from(const uint64_t *counts, uint64_t size);

/* The calls a dst_mod64 or delta_mod64 table counts: those sampled for
 * alignment (preload/histogram.h). */
uint64_t sum_mod64(const uint64_t *counts);

/* "zstd, 3 processes" or "make, cc1 and 2 more, 14 processes". */
const char *dump_title(const struct dump *d, char *buf, size_t size);

/* The threshold that the variant in force for fn really uses, its name,
 * and where the value comes from; 0 when none applies (the variant uses no
 * threshold, or "mixed"). */
uint64_t variant_threshold(const struct dump *d, int fn, const char **what);

#endif
