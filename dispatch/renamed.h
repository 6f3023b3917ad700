/* Variables that were renamed: their old names are still read, with one
 * line (once per run) saying the new name. */
#ifndef MEMSHIM_RENAMED_H
#define MEMSHIM_RENAMED_H

#include <stdbool.h>

/* The value of variable `name`, else of an old name of it (said on
 * stderr); NULL if neither is set. */
const char *renamed_getenv(const char *name);

/* Whether `name` is an old name still read. */
bool renamed_old_name(const char *name);

/* The (first) old name of variable `name`; NULL if it has none.  For the
 * tools, which read and set the process's environment with the C library. */
const char *renamed_old_of(const char *name);

#endif
