/* Call-size distribution files: either format of data/distributions/README.md. */
#ifndef MEMSHIM_DIST_FILE_H
#define MEMSHIM_DIST_FILE_H

#include "shim/base_function.h"
#include "tools/measure/size_dist.h"

#include <stddef.h>

/* The largest size a distribution may hold: bench's sweep's largest too. */
#define DIST_MAX_SIZE (64ull << 20)

/* Reads a CSV file in either format of data/distributions/README.md:
 * fleetbench's three `key:value` lines, or one line of weights indexed by
 * size.  NULL and a message in error if it cannot. */
struct size_dist *size_dist_load(const char *path, char *error, size_t error_size);

/* A distribution's name from its file's: "dir/Memcpy_Fleet.csv" -> "Memcpy_Fleet". */
void size_dist_name_of(const char *path, char *name, size_t size);

/* The folder holding the built-in distributions: $MEMSHIM_DISTRIBUTIONS, the
 * build tree, the installed share/memshim, or the configured one; NULL if none. */
const char *measure_distribution_dir(void);

/* The names of google/fleetbench's distributions of each function's calls
 * over the fleet: "Memcpy_Fleet", ... */
extern const char *const fleet_distribution_names[FN_COUNT];

/* google/fleetbench's distribution of fn's calls over the fleet (Memcpy_Fleet
 * and the like), from the built-in ones; NULL and a message if it cannot. */
struct size_dist *size_dist_load_fleet(enum base_function fn, char *error, size_t error_size);

#endif
