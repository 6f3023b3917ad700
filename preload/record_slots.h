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

struct slot {
	struct histogram hist;
	unsigned sample_countdown; /* call sites: calls until the next sample */
	unsigned detour;           /* timed wrappers: calls until the common path next takes the slow one */
	bool shared;               /* the overflow slot: atomic adds */
	struct timing_counts timed; /* MEMSHIM_TIMING */
	struct seq_state *seq;      /* MEMSHIM_SEQUENCES: the thread's windows; NULL: none yet */
	bool seq_failed;            /* no memory for them: none for this thread */
};

extern struct slot record_slots[MAX_SLOTS + 1]; /* the last is the shared overflow slot */
extern unsigned record_slots_claimed;
extern bool record_timing_counted; /* the slots hold timed calls: timing was on */

#endif
