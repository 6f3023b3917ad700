/* The variants timed as a program calls them: memshim_<fn>_<variant> in
 * the shared library, not this program's own copies of their code. */
#ifndef MEMSHIM_TOOLS_MEASURE_LIBRARY_H
#define MEMSHIM_TOOLS_MEASURE_LIBRARY_H

#include "dispatch/variants.h"
#include "tools/measure/measure.h"

/* The library, loaded once; NULL (said on stderr) where it cannot be. */
void *measure_library(void);

/* Variant `name`'s memcpy, memmove and memset in lib into v; false if one
 * is missing. */
bool measure_library_functions(void *lib, const char *name, struct measure_variant *v);

/* Variant `row`, from the library (which then reads the thresholds this
 * program sets, before each batch); from this program's own table where
 * the library cannot be loaded (cli_library_path says why). */
struct measure_variant measure_variant_of(const struct variant *row);

#endif
