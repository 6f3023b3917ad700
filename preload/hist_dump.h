/* When and where recorded histograms are written. */
#ifndef MEMSHIM_HIST_DUMP_H
#define MEMSHIM_HIST_DUMP_H

#include <stdbool.h>

/* Arms the dumps this file makes: every MEMSHIM_DUMP_INTERVAL seconds, and
 * a fresh file in each forked child (those at exit, on signals and before
 * exec are the callers': preload/exit_dump.c, signal_dump.c, exec_dump.c).
 * Called once, while recording, from record_start (preload/record_start.h). */
void hist_dump_arm(void);

/* Writes the dump now; `reason` goes into the file.  Async-signal-safe:
 * if another dump is under way (a signal arrived during one), it returns
 * without writing. */
void hist_dump_now(const char *reason);

/* The dump at the end of the process (exit, _exit, a signal): like
 * hist_dump_now(), but it waits for a dump under way in another thread, so
 * the last counts are not lost to an interval dump. */
void hist_dump_last(const char *reason);

/* Whether this is the process whose counts these are: false in a vfork
 * child, which shares our memory until it execs or exits. */
bool hist_dump_own_process(void);

#endif
