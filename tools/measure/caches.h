/* The cache sizes memshim bench and tune size their working sets by, and
 * the flush that puts a cold pass's data out of them. */
#ifndef MEMSHIM_TOOLS_CACHES_H
#define MEMSHIM_TOOLS_CACHES_H

#include <stddef.h>

struct cache_sizes {
	size_t l1d, l2, l3;
};

/* The CPU's (dispatch/cpu_features.c), with a fallback for each level it
 * does not report; or, when MEMSHIM_CACHE_SIZES=L1D,L2,L3 is set (byte
 * counts: "48K,2M,300M"), those, so that a test can pretend to run on
 * another machine.  A bad value is reported once and the CPU's are used. */
const struct cache_sizes *tool_cache_sizes(void);

/* Flushes the lines of p[0, n) from every cache level (written back if
 * dirty), with CLFLUSHOPT where the CPU has it; the caller fences. */
void caches_flush(const char *p, size_t n);

#endif
