/* memshim tune --calibrate's band choice from measured ratios
 * (tools/calibrate/choose_bands.c). */
#ifndef MEMSHIM_CHOOSE_BANDS_H
#define MEMSHIM_CHOOSE_BANDS_H

#include "tools/calibrate/curves.h"

#include <stddef.h>

/* Writes the chosen bands of rows[0..n) (their text form: "glibc" when no
 * variant wins anywhere) into choice, and one line saying why into why.
 * A row named STUB_PROBE_NAME among them is weighed, not chosen. */
void calibrate_choose_bands(const struct band_ratios *rows, unsigned n, char *choice, size_t choice_size, char *why,
		    size_t why_size);

#endif
