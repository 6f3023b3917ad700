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

/* The thresholds the library's variants run with from now on (t NULL:
 * those the library resolved at start-up), passed to its measurement entry
 * point memshim_measure_thresholds. */
void measure_library_thresholds(const struct thresholds *t);

/* Variant `entry`, from the library, which is passed the thresholds to run
 * with before each batch.  Without the library, or without the variant in
 * it, this says so and ends the program. */
struct measure_variant measure_variant_of(const struct variant *entry);

#endif
