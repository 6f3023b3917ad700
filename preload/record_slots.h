/* The recording's counts, shared by its two halves: preload/record.c (the
 * wrappers, which count) and preload/record_dump.c (which adds the counts up
 * for the dump and forgets them in a forked child).  Private to those two. */
#ifndef MEMSHIM_RECORD_SLOTS_H
#define MEMSHIM_RECORD_SLOTS_H

#include "dump/format.h"
#include "preload/sequences.h"
#include "preload/timing.h"

#include <stdbool.h>

#define MAX_SLOTS 512

/* The common path's counters (preload/record.c says why): calls of
 * sizes in the first FRONT_BUCKETS buckets (below 14 GiB), by entry point,
 * memset's of value 0 apart, and size bucket.  Each word holds the bytes in
 * its low 56 bits and in its top 8 the calls still to come of its current
 * group of 256, which a call counts down: the first call of a group (one
 * that finds 0) is sampled and adds the group's 256 calls to the
 * histogram beforehand. */
#define FRONT_BUCKETS 256
#define FRONT_CALL (1ull << 56)
#define FRONT_BYTES (FRONT_CALL - 1)

struct slot {
	uint64_t front[2][E_COUNT][FRONT_BUCKETS]; /* [1]: memset's calls of value 0 */
	struct histogram hist;                       /* the rest, and the front's words when they fill */
	unsigned sample_countdown; /* call sites: calls until the next sample */
	unsigned detour;           /* timed wrappers: calls until the common path next takes the slow one */
	bool shared;               /* the overflow slot: atomic adds */
	struct timing_counts timed; /* MEMSHIM_TIMING */
	struct seq_state *seq;      /* MEMSHIM_SEQUENCES: the thread's windows; NULL: none yet */
	bool seq_failed;            /* no memory for them: none for this thread */
	uint64_t draws;             /* record_sampled's random phases */
};

extern struct slot record_slots[MAX_SLOTS + 1]; /* the last is the shared overflow slot */
extern unsigned record_slots_claimed;
extern bool record_timing_counted; /* the slots hold timed calls: timing was on */

#endif
