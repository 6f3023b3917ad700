/* Starting the recording the configuration asks for (preload/record_start.c). */
#ifndef MEMSHIM_RECORD_START_H
#define MEMSHIM_RECORD_START_H

/* Arms the dumps: at exit, every MEMSHIM_DUMP_INTERVAL seconds, before
 * SIGTERM, SIGINT or SIGHUP ends the process and on MEMSHIM_DUMP_SIGNAL,
 * before exec, and a fresh file in each forked child; then starts the call
 * sites, the profile and the timed calls asked for.  Called once, from the
 * constructor; nothing without MEMSHIM_DUMP. */
void record_start(void);

#endif
