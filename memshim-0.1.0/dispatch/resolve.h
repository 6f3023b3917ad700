/* What the exported indirect functions resolve to. */
#ifndef MEMSHIM_RESOLVE_H
#define MEMSHIM_RESOLVE_H

#include "dispatch/variants.h"

/* The entry set every name that follows `fn` is taken from: the chosen
 * variant's.  Safe to call from a resolver at any point of start-up. */
const struct entry_set *resolve_entries(enum base_function fn);

#endif
