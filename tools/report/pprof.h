/* memshim report --pprof: the dumps as one pprof profile, for pprof,
 * Grafana Pyroscope and Parca (tools/report/pprof.c says what is in it). */
#ifndef MEMSHIM_REPORT_PPROF_H
#define MEMSHIM_REPORT_PPROF_H

#include "dump/format.h"

#include <stddef.h>

/* NULL when this memshim can write pprof profiles, else why it cannot. */
const char *pprof_missing(void);

/* Writes d, read from the dump files and directories args names, to path
 * as a gzip-compressed pprof profile; prints why and returns -1 if it cannot. */
int write_pprof(const struct dump *d, const char *path, bool replace, char *const *args, size_t n);

#endif
