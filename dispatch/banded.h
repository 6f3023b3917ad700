/* The entry set that serves a function's size bands (dispatch/banded.c). */
#ifndef MEMSHIM_BANDED_H
#define MEMSHIM_BANDED_H

#include "dispatch/bands.h"
#include "shim/entry_set.h"

/* The entries fn's calls go to under `bands`: the variant's own with one
 * band, else the band dispatcher's, its table for fn set from `bands`.
 * Each function's table is set once; the dispatcher serves one band list
 * per function at a time. */
const struct entry_set *banded_entries(enum base_function fn, const struct band_list *bands);

#endif
