/* Words of a shipped CPU row's text (data/cpu-rows/ *.row) that memshim
 * cpu-row writes and memshim info reads back: whether the row's ratios
 * hold a ratio per placement, or one placement written three times. */
#ifndef MEMSHIM_ROW_WORDS_H
#define MEMSHIM_ROW_WORDS_H

#include "dispatch/cpu_rows.h"

#include <stddef.h>

/* In a row's measured line: made from a memshim bench CSV, and, where
 * that CSV timed each class in every placement, so. */
#define ROW_TEXT_FROM_BENCH "row by memshim cpu-row --from-bench"
#define ROW_TEXT_EVERY_PLACEMENT "each class in l1, l2 and cold"
#define ROW_TEXT_FOUR_PLACEMENTS "each class in L1, L2, L3 and cold"
/* How the band choice (tools/calibrate/choose_bands.c) ends its reason, and
 * what a row whose ratios hold one placement a class says instead. */
#define ROW_TEXT_WORST_PLACEMENT " (worst placement's ratio to glibc)"
#define ROW_TEXT_ONE_PLACEMENT " (ratio to glibc in the one placement measured)"

/* text with ROW_TEXT_WORST_PLACEMENT replaced by ROW_TEXT_ONE_PLACEMENT
 * (into out) where text holds a reason of row r and r's ratios hold one
 * placement a class (made from bench before cpu-row said so); else text. */
const char *row_words_truth(const struct cpu_row *r, const char *text, char *out, size_t size);

/* A reason (size bytes) from the band choice made on one placement a
 * class, said so; where that does not fit, without the parenthesis. */
void row_words_one_placement(char *why, size_t size);

#endif
