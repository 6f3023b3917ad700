/* Dumps on signals (preload/signal_dump.c). */
#ifndef MEMSHIM_SIGNAL_DUMP_H
#define MEMSHIM_SIGNAL_DUMP_H

/* The library's handler under SIGTERM, SIGINT, SIGHUP and
 * MEMSHIM_DUMP_SIGNAL, whatever the program installs later. */
void signal_dump_start(void);

#endif
