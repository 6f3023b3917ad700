/* The hazard catalogue: the named cases where a known implementation of
 * memcpy, memmove or memset falls off a cliff.  One table, read by bench
 * (--cases hazard times each case), by cpu-row's rule (a variant much
 * slower than the best in any case is no default), and through the row by
 * info, report and tune.  The recording counts the calls of the hazards
 * it can see from a call's arguments (alias4k: dump/counts.h).
 *
 * A case of the catalogue is one hazard at one size and one "where": its
 * bench CSV lines have case "hazard", the size, and the alignment column
 * "NAME:WHERE" (alias4k:4k+16, overlap:+16, misalign:s0/d1, stosb:d0,
 * nt:s0/d0). */
#ifndef MEMSHIM_HAZARDS_H
#define MEMSHIM_HAZARDS_H

#include "shim/base_function.h"

#include <stdbool.h>
#include <stddef.h>

/* How a hazard's "where" places the source and the destination. */
enum hazard_shape {
	SHAPE_ALIAS,   /* where: (dst - src) mod 4096, the source at a page's start */
	SHAPE_OVERLAP, /* where: dst - src, a memmove forward onto its own source */
	SHAPE_OFFSETS, /* where: src offset * 64 + dst offset, mod 64, far from aliasing */
	SHAPE_PLAIN,   /* where: unused; both at a page's start, far from aliasing */
};

#define HAZARD_MAX_WHERE 5
#define HAZARD_MAX_SIZES 4

struct hazard {
	const char *name;
	unsigned functions; /* a bit per enum base_function */
	enum hazard_shape shape;
	bool cold;          /* its data flushed from the caches (else in L1, as far as it fits) */
	int where[HAZARD_MAX_WHERE];
	unsigned where_count;
	int reference;      /* a where timed beside the others but not judged (-1: none) */
	size_t sizes[HAZARD_MAX_SIZES];
	unsigned size_count;
	const char *what;   /* one sentence: the cliff, and where it is known */
};

/* A variant whose time in a case is more than this times the best
 * variant's there is not a default (issue 61's rule). */
#define HAZARD_LOSS_RATIO 1.5

extern const struct hazard hazards[];
extern const unsigned hazard_count;

/* The hazard of that name, or NULL. */
const struct hazard *hazard_named(const char *name, size_t len);

/* The alignment column of fn's case at `where`, "NAME:WHERE", into buf. */
void hazard_where_text(const struct hazard *h, enum base_function fn, int where, char *buf, size_t size);

/* The hazard of a bench CSV alignment column "NAME:WHERE", and through
 * *judged whether the rule judges it (not the hazard's reference); NULL
 * for a column that is not one. */
const struct hazard *hazard_of_column(const char *column, bool *judged);

/* The text after "NAME:" of name's entry in a row's comma-separated list
 * ("glibc:0.094,avx2:0.000" or the hazards line's), or NULL. */
const char *row_list_entry(const char *list, const char *name);

/* A variant's multiple in a row's hazards list ("glibc:27.55:alias4k:4096:
 * 4k+16,avx2:1.00:..."), and its case ("alias4k:4096:4k+16") into where
 * (NULL: not wanted); -1 where the list does not name it. */
double hazard_multiple(const char *list, const char *variant, char *where, size_t size);

#endif
