/* memshim report --pprof's profile, encoded and written. */
#ifndef MEMSHIM_PPROF_ENCODE_H
#define MEMSHIM_PPROF_ENCODE_H

#include "tools/report/pprof_builder.h"
#include "dump/reader/load.h"

#include <stdint.h>

/* The time the dumps cover. */
struct span {
	int64_t first, last; /* ns since the epoch; first > last: none */
};

/* Encodes b (with d's programs and the time s) as a gzip-compressed pprof
 * profile at path; -1 after a message if it cannot. */
int pprof_encode(struct builder *b, const struct dump *d, struct span s, const char *path, bool replace);

#endif
