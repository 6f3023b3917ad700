/* Windows of consecutive calls (MEMSHIM_SEQUENCES=N, up to
 * SEQUENCES_MAX_LENGTH in dispatch/config.h): for each thread,
 * from moments drawn at random, the next N calls of one function (the one
 * called at that moment), each with its size, its offsets mod 4096 and
 * the distance from source to destination; what memshim bench --replay
 * times the variants on, in order.
 *
 * Window starts are drawn with gaps uniform from 1 to 2G-1 calls (G on
 * average), so a program whose calls repeat with a period gets windows at
 * every phase of it.  A thread keeps SEQ_KEPT windows: when they are full
 * G doubles and each window kept, the one due included, stays with
 * probability one half, so that those kept are a uniform sample of the
 * whole run, one for about every G calls.  Between windows the recording's
 * common path only counts down to the next start, as it does to a timed
 * call (preload/record.c); a window's calls take the slow path. */
#ifndef MEMSHIM_SEQUENCES_H
#define MEMSHIM_SEQUENCES_H

#include "dump/format.h"

#include <stdbool.h>
#include <stddef.h>

#define SEQ_KEPT 512      /* windows a thread keeps */

struct seq_state;

/* A thread's windows, mapped on its first slow call; NULL if no memory. */
struct seq_state *seq_thread_start(unsigned length);

/* One call on the slow path, standing for `passed` calls since the last
 * (the common path's countdown); d, s, n its arguments (s NULL: memset).
 * True while a window is open: every call must then take the slow path. */
bool seq_count(struct seq_state *q, unsigned passed, enum base_function fn, const void *d, const void *s,
               size_t n);

/* Calls until the next window starts. */
unsigned seq_calls_to_window(const struct seq_state *q);

/* Forgets every window: in a forked child. */
void seq_reset(struct seq_state *q);

/* Writes the windows of the threads' states[0..count) (NULL ones skipped)
 * as the dump's sequences records; nothing if none.  Async-signal-safe. */
bool seq_write(int fd, struct seq_state *const *states, unsigned count);

#endif
