/* A call's size bucket, as the byte offset of its counters in calls[] and
 * bytes[] (bucket * 8), which the counters' addresses take as it is.
 * Below CALL_BUCKETS_LOOKED_UP it is looked up in a table that
 * record_entries fills (call_buckets_fill) before any wrapper runs: one
 * load and no branch in place of hist_bucket's tests, bit scan and shifts.
 * Every instruction the wrapper adds counts: in a loop of mixed sizes,
 * whose copies mispredict, each lengthens the mispredicted calls, and after
 * a rep movsb they wait for the microcode to finish. */
#ifndef MEMSHIM_CALL_BUCKETS_H
#define MEMSHIM_CALL_BUCKETS_H

#include "dump/counts.h"

#include <stddef.h>
#include <stdint.h>

#define CALL_BUCKETS_LOOKED_UP 8192

extern uint16_t bucket_offset_table[CALL_BUCKETS_LOOKED_UP] __attribute__((visibility("hidden")));

static inline __attribute__((always_inline)) unsigned call_bucket_offset(size_t n)
{
	if (__builtin_expect(n < CALL_BUCKETS_LOOKED_UP, 1))
		return bucket_offset_table[n];
	return hist_bucket(n) * sizeof(uint64_t);
}

/* Fills the table, once (later calls find it filled). */
void call_buckets_fill(void) __attribute__((visibility("hidden")));

#endif
