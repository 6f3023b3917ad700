/* When and where recorded histograms are written. */
#ifndef MEMSHIM_HIST_DUMP_H
#define MEMSHIM_HIST_DUMP_H

/* Arms the dumps the configuration asks for: at exit, every
 * MEMSHIM_HIST_INTERVAL seconds, on MEMSHIM_HIST_SIGNAL, before exec, and
 * a fresh file in each forked child.  Called once, from the constructor. */
void hist_dump_start(void);

/* Writes the dump now; `reason` goes into the file.  Async-signal-safe:
 * if another dump is under way (a signal arrived during one), it returns
 * without writing. */
void hist_dump_now(const char *reason);

#endif
