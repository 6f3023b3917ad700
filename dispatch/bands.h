/* A function's size bands: an ordered list of upper size bounds, each with
 * the variant that serves the calls up to it.  One band is a single variant
 * at every size, which is how the library ran before bands.
 *
 * The text form, used by the variant settings' variables (dispatch/settings.h),
 * the calibration file and the shipped CPU rows, is VARIANT:BOUND,...,VARIANT: each bound
 * the largest size (bytes, with K, M or G) its variant serves, ascending,
 * and the last variant serving everything larger ("glibc:256,avx2").
 *
 * Parsed without the C library: the resolvers read it at start-up. */
#ifndef MEMSHIM_BANDS_H
#define MEMSHIM_BANDS_H

#include "dispatch/variants.h"

#include <stdbool.h>
#include <stddef.h>

#define MAX_BANDS 10
/* The text form of the longest list, NUL included. */
#define BAND_TEXT_MAX (MAX_BANDS * 32)

struct band_list {
	unsigned count;
	size_t upper[MAX_BANDS]; /* inclusive; the last band's is SIZE_MAX */
	const struct variant *variant[MAX_BANDS];
};

/* Parses text into out: NULL on success, else the problem in words that
 * follow the text ("is not a variant or band list (...)").  Variants this
 * CPU or C library cannot run are refused. */
const char *band_list_parse(const char *text, struct band_list *out);
/* The same, with the variants checked against a CPU with features f. */
const char *band_list_parse_on(const char *text, const struct cpu_features *f, struct band_list *out);

/* One band of variant v. */
struct band_list band_list_single(const struct variant *v);

/* Whether the text names more than a single variant (has a ':' or ','). */
bool band_text_is_list(const char *text);

/* Writes the text form into out (BAND_TEXT_MAX bytes). */
void band_list_format(const struct band_list *b, char out[BAND_TEXT_MAX]);

#endif
