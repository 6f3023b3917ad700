/* Counts by call site, for the profiler's samples (preload/profile.c) and
 * the timed calls (preload/timing.c): per caller and function, how many
 * events and what they add up to (ns, or counter ticks).  Open addressing,
 * an entry claimed with one compare-and-swap, so that threads and signal
 * handlers add without a lock and without allocating.  The add is inline:
 * it runs in the caller's code section (the recording's, where that counts). */
#ifndef MEMSHIM_PRELOAD_SITE_TABLE_H
#define MEMSHIM_PRELOAD_SITE_TABLE_H

#include "shim/base_function.h"

#include <stdbool.h>
#include <stdint.h>

#define SITE_TABLE_SIZE 1024

struct site_count {
	uint64_t key; /* caller << 2 | (fn + 1); 0: empty */
	uint64_t events, amount;
};

struct site_table {
	struct site_count entry[SITE_TABLE_SIZE];
};

/* Adds one event of `amount` to fn's calls from caller; dropped when the
 * table is full (the event still counts by function and size elsewhere). */
static inline __attribute__((always_inline)) void site_table_add(struct site_table *t, uintptr_t caller,
                                                                  enum base_function fn, uint64_t amount)
{
	uint64_t key = (uint64_t)caller << 2 | (uint64_t)(fn + 1);
	for (unsigned probe = 0; probe < SITE_TABLE_SIZE; probe++) {
		struct site_count *s = &t->entry[((key * 0x9e3779b97f4a7c15ull >> 54) + probe) & (SITE_TABLE_SIZE - 1)];
		uint64_t seen = __atomic_load_n(&s->key, __ATOMIC_RELAXED);
		if (seen == 0 && __atomic_compare_exchange_n(&s->key, &seen, key, false, __ATOMIC_RELAXED,
		                                             __ATOMIC_RELAXED))
			seen = key;
		if (seen == key) {
			__atomic_fetch_add(&s->events, 1, __ATOMIC_RELAXED);
			__atomic_fetch_add(&s->amount, amount, __ATOMIC_RELAXED);
			return;
		}
	}
}

/* Empties the table (a forked child starts its own counts). */
void site_table_clear(struct site_table *t);

/* Calls write(context, fn, events, amount, frame) for every site with
 * events, frame naming the caller (preload/callsites.h); stops at the first
 * false, and returns it. */
bool site_table_write(const struct site_table *t,
                      bool (*write)(void *context, enum base_function fn, uint64_t events, uint64_t amount,
                                    const char *frame),
                      void *context);

#endif
