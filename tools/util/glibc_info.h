/* What glibc itself does on this machine, for `memshim info` to show
 * beside memshim's choice. */
#ifndef MEMSHIM_GLIBC_INFO_H
#define MEMSHIM_GLIBC_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Prints the implementations glibc's ifunc resolvers pick for memcpy,
 * memmove and memset in this process, by name where a symbol table (the
 * library's own or its debug file) has one, and the string thresholds its
 * dynamic linker reports (ld.so --list-diagnostics).  What cannot be had
 * is said in one line. */
void glibc_info_print(void);

/* The name of what glibc's `function` (memcpy, ...) resolves to in this
 * process, or its file and offset, or why it is unknown; false when no
 * symbol table names it. */
bool glibc_function_name(const char *function, char *name, size_t size);

enum glibc_threshold { GLIBC_REP_MOVSB, GLIBC_REP_STOSB, GLIBC_NON_TEMPORAL, GLIBC_REP_MOVSB_STOP };

/* One of glibc's thresholds on this machine, in bytes, as its dynamic
 * linker reports them (read once); 0 when it does not say. */
uint64_t glibc_threshold(enum glibc_threshold which);

#endif
