/* Recording: wrappers that count each call, then call the chosen variant.
 *
 * Chosen by the resolvers: when MEMSHIM_DUMP is unset not one instruction
 * is added to any call; when set, every exported name resolves to the
 * wrapper in record_entries(), whichever variant (glibc's too) it wraps. */
#ifndef MEMSHIM_RECORD_H
#define MEMSHIM_RECORD_H

#include "shim/entry_set.h"
#include "dump/format.h"
#include "preload/timing.h"

/* The recording entry set for fn, calling `target`'s functions. */
const struct entry_set *record_entries(enum base_function fn, const struct entry_set *target);

/* The in-process A/B's entry set for fn (preload/ab.h): recorded, then
 * served by setting A's functions (a) or B's (b), timed. */
const struct entry_set *record_ab_entries(enum base_function fn, const struct entry_set *a,
                                          const struct entry_set *b);

/* Sums every thread's counts (those of ended threads too) into *out, which
 * the caller zeroed.  Async-signal-safe. */
void record_sum(struct histogram *out);

/* Adds every thread's timed calls into *out, which the caller zeroed.
 * Async-signal-safe. */
void record_sum_timing(struct timing_counts *out);

/* Forgets every count and call site: in a forked child, which starts its own. */
void record_reset(void);

/* The variant functions the wrappers call, one member per exported name. */
const struct entry_set *record_targets(void);

/* Turns on call-site sampling of one call in `every` (libunwind), each of
 * up to `depth` frames; false if unavailable. */
bool record_start_callsites(unsigned every, unsigned depth);

/* Turns on timing one call in `every` (preload/timing.h); false (said) if the
 * time-stamp counter cannot time calls here. */
bool record_start_timing(unsigned every);

/* Stops timing calls (the program forbade itself the time-stamp counter);
 * the calls timed so far are still dumped. */
void record_stop_timing(void);

/* Turns on windows of `length` consecutive calls (preload/sequences.h). */
void record_start_sequences(unsigned length);

/* Writes every thread's windows as the dump's sequences records; nothing
 * when there are none.  Async-signal-safe. */
bool record_write_sequences(int fd);

/* Start-up is over: call-site sampling and timing are on or off for good,
 * and the common path may count down to its next detour. */
void record_started(void);

#endif
