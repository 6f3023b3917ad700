/* What recording counts, laid out the same in each thread's slot, in a
 * dump, and in the tools after they merge dumps.
 *
 * Size buckets: one per size for 0..16, then 8 per power of two, so a
 * threshold can be placed within 12.5%, up to 2^48 (larger sizes count in
 * the last bucket).  Each bucket counts calls and bytes: in fleet data a
 * few large memcpy calls carry most of the bytes, so counting calls alone
 * misleads. */
#ifndef MEMSHIM_DUMP_COUNTS_H
#define MEMSHIM_DUMP_COUNTS_H

#include "shim/base_function.h"
#include "shim/memshim.h"

#include <stdint.h>

#define HIST_EXACT_MAX 16
#define HIST_SUBBUCKETS 8     /* per power of two */
#define HIST_TOP_POWER 48     /* sizes from 2^48 on share the last bucket */
#define HIST_BUCKETS (HIST_EXACT_MAX + 1 + (HIST_TOP_POWER - 4) * HIST_SUBBUCKETS)

/* Copies whose (dst - src) mod 4096 is below this alias on 4 KiB pages:
 * loads look like they depend on recent stores.  Distance 0 (page-aligned
 * copies) is harmless; 1 to 63 makes rep movsb slow on some AMD cores, which
 * glibc uses for copies from about 2 KiB, hence the count from that size. */
#define HIST_ALIAS_WINDOW 64
#define HIST_ALIAS_LARGE 2048

/* Every exported name, counted apart as well as with its base function:
 * E_MEMCPY, ... in the order of shim/memshim.h's list. */
#define ENTRY_POINT_ID(v, entry, symbol, base, size_register, id, ...) id,
enum entry_point { MEMSHIM_ENTRY_POINTS(ENTRY_POINT_ID, ) E_COUNT };
#undef ENTRY_POINT_ID

extern const char *const entry_point_names[E_COUNT];
extern const enum base_function entry_point_base[E_COUNT];

/* Since dump version 9 the alignment counts (dst_mod64, delta_mod64) are
 * those of one call in this many of each size bucket: every call's would
 * cost a recorded program two more counters written a call. */
#define HIST_ALIGN_EVERY 256

struct function_histogram {
	uint64_t calls[HIST_BUCKETS], bytes[HIST_BUCKETS];
	uint64_t dst_mod64[64];        /* destination address mod 64: the calls sampled */
	uint64_t delta_mod64[64];      /* copies: (dst - src) mod 64: the calls sampled */
	/* copies whose (dst - src) mod 4096 is 0; 1 to HIST_ALIAS_WINDOW - 1, and
	 * of those the ones of HIST_ALIAS_LARGE bytes or more; and, read from
	 * dumps before version 4, the whole window not told apart */
	uint64_t alias_same_calls, alias_same_bytes;
	uint64_t alias_near_calls, alias_near_bytes, alias_near_large_calls, alias_near_large_bytes;
	uint64_t alias_unsplit_calls, alias_unsplit_bytes;
	uint64_t overlap_dst_before;   /* memmove: overlapping, destination before source */
	uint64_t overlap_dst_after;    /* memmove: overlapping, destination after source */
	uint64_t zero_calls, zero_bytes; /* memset: value 0 */
};

struct histogram {
	struct function_histogram fn[FN_COUNT];
	uint64_t entry_calls[E_COUNT];
};

/* The bucket of a size: exact up to 16, then 8 per power of two. */
static inline unsigned hist_bucket(uint64_t n)
{
	if (n <= HIST_EXACT_MAX)
		return (unsigned)n;
	unsigned power = 63 ^ (unsigned)__builtin_clzll(n); /* >= 4; the XOR is one bsr */
	if (power >= HIST_TOP_POWER)
		return HIST_BUCKETS - 1;
	/* the top 4 bits of n: 8 + the sub-bucket */
	unsigned top = (unsigned)(n >> (power - 3));
	return HIST_EXACT_MAX + 1 + (power - 4) * HIST_SUBBUCKETS + top - HIST_SUBBUCKETS;
}

/* The sizes a bucket holds: [lo, hi). The last bucket's hi is 2^64-1. */
uint64_t hist_bucket_lo(unsigned bucket);
uint64_t hist_bucket_hi(unsigned bucket);

#endif
