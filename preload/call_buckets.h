/* A call's size bucket (preload/histogram.h's hist_bucket), for the
 * recording wrappers.  Below CALL_BUCKETS_LOOKED_UP it is looked up in a
 * byte table that record_entries fills (call_buckets_fill) before any
 * wrapper runs: one load in place of hist_bucket's tests, bit scan and
 * shifts.  Every instruction the wrapper adds counts: where the copies'
 * data is cold the core holds fewer calls in flight the more instructions
 * each takes, and a bucket worked out (about a dozen more) cost a cold
 * 8-byte copy twice what the load does. */
#ifndef MEMSHIM_CALL_BUCKETS_H
#define MEMSHIM_CALL_BUCKETS_H

#include "dump/counts.h"

#include <stddef.h>
#include <stdint.h>

/* Below the size from which 4 KiB aliasing is counted: the calls that take
 * the table take no test of it either (preload/record.c). */
#define CALL_BUCKETS_LOOKED_UP HIST_ALIAS_LARGE

extern uint8_t size_bucket_table[CALL_BUCKETS_LOOKED_UP] __attribute__((visibility("hidden")));

static inline __attribute__((always_inline)) unsigned call_bucket(size_t n)
{
	if (__builtin_expect(n < CALL_BUCKETS_LOOKED_UP, 1))
		return size_bucket_table[n];
	return hist_bucket(n);
}

/* Fills the table, once (later calls find it filled). */
void call_buckets_fill(void) __attribute__((visibility("hidden")));

#endif
