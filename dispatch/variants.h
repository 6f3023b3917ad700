/* The table of variants: every implementation the library can dispatch to,
 * one entry per line of shim/memshim_variants.h, in its order.  Adding a
 * variant means a line there and its file in shim/. */
#ifndef MEMSHIM_VARIANTS_H
#define MEMSHIM_VARIANTS_H

#include "dispatch/cpu_features.h"
#include "dispatch/message.h"
#include "shim/base_function.h"
#include "shim/entry_set.h"

#include <stdbool.h>

/* VARIANT_ID_fsrm, ...: each variant's index in it. */
enum variant_id {
#define MEMSHIM_VARIANT(name, ...) VARIANT_ID_##name,
#include "shim/memshim_variants.h"
#undef MEMSHIM_VARIANT
	VARIANT_COUNT
};

/* The entry of a variant named in the code: VARIANT(avx2).  A name that is
 * not in the list does not compile. */
#define VARIANT(name) (&variant_table[VARIANT_ID_##name])

struct thresholds;

struct variant {
	const char *name;
	const char *summary; /* one line, for `memshim info` and --help */
	/* Whether this CPU and OS can run it; NULL means every x86-64 can. */
	bool (*usable)(const struct cpu_features *);
	/* The implementation; NULL when it could not be found (glibc's). */
	const struct entry_set *(*entries)(void);
	/* Appends " (rep movsb from 2048 B)" or the like: the thresholds of t
	 * this entry reads for fn.  NULL when it reads none. */
	void (*describe_thresholds)(enum base_function fn, const struct thresholds *t, struct line *l);
	unsigned vector_bytes; /* bytes per vector register; 0: none */
	bool rep_range;         /* from a threshold on: rep movsb / rep stosb */
	enum variant_id twin;  /* the variant whose code it runs below that rep range */
	enum variant_id unmasked; /* whose code it runs in memset and above 16 B */
};

extern const struct variant variant_table[VARIANT_COUNT];
extern const unsigned variant_count;

/* The variant whose code v runs below its rep range: avx2 for avx2_erms;
 * v itself when no other variant has that code (erms) or v has no rep range.
 * Calibration measures the twin and composes v from it. */
static inline const struct variant *variant_twin(const struct variant *v)
{
	return &variant_table[v->twin];
}

/* The variant whose code v runs in memset and in copies of more than 16
 * bytes: avx512 for avx512_mask; v itself for all but the *_mask ones.
 * Calibration measures it there and gives v its figures. */
static inline const struct variant *variant_unmasked(const struct variant *v)
{
	return &variant_table[v->unmasked];
}

/* The largest copy a *_mask variant makes in its one masked move
 * (shim/vector_ladder.S, MASKED_COPY). */
#define MASKED_COPY_MAX 16

/* Whether a *_mask variant of fn runs its unmasked variant's very code at
 * every size from lo up: in memset, and in copies above MASKED_COPY_MAX. */
static inline bool runs_unmasked_code(enum base_function fn, size_t lo)
{
	return fn == FN_MEMSET || lo > MASKED_COPY_MAX;
}

/* The variant of that name, or NULL: for names in text (variables, files);
 * the code names one with VARIANT(). */
const struct variant *variant_named(const char *name);

/* The variant a setting's `name` names, a retired name giving the nearest
 * that remains (said once, D50); NULL if it names none. */
const struct variant *variant_setting_named(const char *name);

bool variant_usable(const struct variant *v);
/* Whether a CPU with features f (and this C library) can run v. */
bool variant_usable_on(const struct variant *v, const struct cpu_features *f);

#endif
