/* The band dispatcher: the variant a function uses when its choice is more
 * than one size band (dispatch/bands.h).  Each base function finds the
 * first band whose bound covers the size and jumps to that band's variant,
 * a tail call, so a profiler or dladdr sees the variant that ran, not this
 * file.  With one band the exported slot points at the variant itself and
 * none of this runs.
 *
 * The tables are filled once by the resolvers, before the first call
 * (dispatch/export_stub.h), and read-only after. */
#include "dispatch/banded.h"

#include "shim/entry_set.h"

#include <stdint.h>

/* Not exported, unlike the variants: called with a table not filled (a
 * function with fewer than three bands), the search would run off its end. */
#undef MEMSHIM_EXPORT
#define MEMSHIM_EXPORT __attribute__((visibility("hidden")))

MEMSHIM_BASE_DECLARATIONS(banded);

/* One band as the dispatcher reads it: a bound and an entry point, side by
 * side so the loop touches one cache line. */
struct band_entry {
	size_t upper;
	void *function;
};

static struct band_entry tables[FN_COUNT][MAX_BANDS];

/* The first band that serves n: the last one's bound is SIZE_MAX. */
static inline void *band_function(enum base_function fn, size_t n)
{
	const struct band_entry *b = tables[fn];
	while (n > b->upper)
		b++;
	return b->function;
}

void *memshim_memcpy_banded(void *restrict d, const void *restrict s, size_t n)
{
	return ((memcpy_fn *)band_function(FN_MEMCPY, n))(d, s, n);
}

void *memshim_memmove_banded(void *d, const void *s, size_t n)
{
	return ((memmove_fn *)band_function(FN_MEMMOVE, n))(d, s, n);
}

void *memshim_memset_banded(void *d, int c, size_t n)
{
	return ((memset_fn *)band_function(FN_MEMSET, n))(d, c, n);
}

MEMSHIM_DERIVED_ENTRIES(banded);

/* The base function of fn in entry set e. */
static void *base_entry(const struct entry_set *e, enum base_function fn)
{
	return fn == FN_MEMCPY ? (void *)e->memcpy : fn == FN_MEMMOVE ? (void *)e->memmove : (void *)e->memset;
}

const struct entry_set *banded_entries(enum base_function fn, const struct band_list *bands)
{
	if (bands->count == 1)
		return bands->variant[0]->entries();
	for (unsigned i = 0; i < bands->count; i++) {
		tables[fn][i].upper = bands->upper[i];
		tables[fn][i].function = base_entry(bands->variant[i]->entries(), fn);
	}
	return &memshim_entries_banded;
}
