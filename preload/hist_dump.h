/* When and where recorded histograms are written. */
#ifndef MEMSHIM_HIST_DUMP_H
#define MEMSHIM_HIST_DUMP_H

#include <stdbool.h>

/* Arms the dumps the configuration asks for: at exit, every
 * MEMSHIM_HIST_INTERVAL seconds, before SIGTERM, SIGINT or SIGHUP ends the
 * process and on MEMSHIM_HIST_SIGNAL, before exec, and a fresh file in each
 * forked child.  Called once, from the constructor. */
void hist_dump_start(void);

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

/* preload/signal_dump.c: the library's handler under SIGTERM, SIGINT, SIGHUP
 * and MEMSHIM_HIST_SIGNAL, whatever the program installs later. */
void signal_dump_start(void);

#endif
