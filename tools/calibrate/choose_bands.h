/* memshim tune --calibrate's band choice from measured ratios
 * (tools/calibrate/choose_bands.c). */
#ifndef MEMSHIM_CHOOSE_BANDS_H
#define MEMSHIM_CHOOSE_BANDS_H

#include "tools/calibrate/curves.h"

#include <stdbool.h>
#include <stddef.h>

/* The most a default may take of glibc's time in any cell (D41). */
#define CHOICE_LOSS_RATIO 1.03

/* Writes the chosen bands of ratios[0..n) (their text form: "glibc" when no
 * variant wins anywhere) into choice, and one line saying why into why.
 * The ratios named STUB_PROBE_NAME among them are weighed, not chosen.
 * incumbent: the variant this CPU's shipped row gives the function as its
 * one band, or NULL (no row, bands, or glibc's own); it qualifies on its
 * medians, every other variant on its intervals' upper ends, and within 1%
 * of the least fleet mean it is kept: a calibration changes a default for
 * a gain it shows, not for the noise between near ties. */
void calibrate_choose_bands(const struct band_ratios *ratios, unsigned n, const char *incumbent, char *choice,
			    size_t choice_size, char *why, size_t why_size);

/* A cell of the choice: size class k, placement p. */
struct choice_cell {
	int k;
	enum placement p;
};

/* The cells to measure again for r, a candidate that the rule could make
 * the default (its fleet mean below 1) but for reading above 1.03 in 1..max
 * cells: those cells, in order, and how many; else 0. */
unsigned calibrate_cells_to_confirm(const struct band_ratios *r, struct choice_cell *cells, unsigned max);

/* Whether r may be the default by the rule, as measured so far: at most
 * 1.03 in every cell, and below 1 on the fleet distribution. */
bool calibrate_may_qualify(const struct band_ratios *r);

/* Whether r qualifies by the rule, as calibrate_choose_bands judges it
 * with incumbent; and the figure the rule ranks candidates by, the
 * geometric mean of r's fleet cells (0 where none was measured). */
bool calibrate_qualifies(const struct band_ratios *r, const char *incumbent);
double calibrate_fleet_mean(const struct band_ratios *r);

#endif
