/* The band choice of a calibration: each function measured against glibc
 * in every size class and placement, and the variant (or bands) chosen. */
#ifndef MEMSHIM_BAND_CHOICE_H
#define MEMSHIM_BAND_CHOICE_H

#include "tools/util/calibration.h"

#include <stdbool.h>
#include <stddef.h>

/* The variant choice, with the thresholds in c already
 * picked (and in force); `steps` counted on the progress line. */
struct bench_settings;
struct progress;
void tune_choose_variants(struct calibration *c, struct bench_settings *s, struct progress *bar);
/* Whether the band choice weighs variant `name`: glibc's and the vector ones. */
bool tune_is_candidate(const char *name);
/* The largest size a band draws (for the buffers), and the steps. */
size_t tune_choice_largest(void);
unsigned tune_choice_steps(void);

#endif
