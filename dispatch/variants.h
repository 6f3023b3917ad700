/* The table of variants: every implementation the library can dispatch to.
 * Adding a variant means one file in shim/ and one row in variants.c. */
#ifndef MEMSHIM_VARIANTS_H
#define MEMSHIM_VARIANTS_H

#include "dispatch/cpu_features.h"
#include "dispatch/message.h"
#include "shim/base_function.h"
#include "shim/entry_set.h"

#include <stdbool.h>

struct variant {
	const char *name;
	const char *summary; /* one line, for `memshim info` and --help */
	/* Whether this CPU and OS can run it; NULL means every x86-64 can. */
	bool (*usable)(const struct cpu_features *);
	/* The implementation; NULL when it could not be found (glibc's). */
	const struct entry_set *(*entries)(void);
	/* Appends " (rep movsb from 2048 B)" or the like: the thresholds this
	 * row reads for fn.  NULL when it reads none. */
	void (*describe_thresholds)(enum base_function fn, struct line *l);
};

extern const struct variant variant_table[];
extern const unsigned variant_count;

/* The variant of that name, or NULL. */
const struct variant *variant_named(const char *name);

bool variant_usable(const struct variant *v);
/* Whether a CPU with features f (and this C library) can run v. */
bool variant_usable_on(const struct variant *v, const struct cpu_features *f);

#endif
