/* Dumps added up in memory, for the dump reader (dump/reader/read.c). */
#ifndef MEMSHIM_DUMP_ADD_H
#define MEMSHIM_DUMP_ADD_H

#include "dump/format.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Appends a site with a copy of `frames` to *sites, which holds *have;
 * false if out of memory. */
bool hist_add_site(struct dump_site **sites, size_t *have, enum base_function fn, uint64_t count,
                   uint64_t amount, const char *frames);

/* Whether adding `from` to `to` overflows a counter, or a function's calls
 * or bytes summed over its buckets. */
bool hist_add_overflows(const struct dump *to, const struct dump *from);

/* Adds `from`, of program `name`, to `to` and to its program's entry;
 * false if out of memory.  The caller has checked hist_add_overflows. */
bool hist_add_program(struct dump *to, const struct dump *from, const char *name);

#endif
