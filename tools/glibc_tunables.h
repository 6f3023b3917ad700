/* glibc's own copy thresholds on this machine, as its dynamic linker
 * reports them (ld.so --list-diagnostics, glibc 2.33 and later): what
 * variant "glibc" really uses.  0 when the loader does not say. */
#ifndef MEMSHIM_GLIBC_TUNABLES_H
#define MEMSHIM_GLIBC_TUNABLES_H

#include <stdint.h>

uint64_t glibc_rep_movsb_threshold(void);
uint64_t glibc_rep_stosb_threshold(void);

#endif
