/* The band choice of a calibration: each function measured against glibc
 * in every size class and placement, and the variant (or bands) chosen. */
#ifndef MEMSHIM_MEASURE_CLASSES_H
#define MEMSHIM_MEASURE_CLASSES_H

#include "tools/calibrate/curves.h"

#include <stdbool.h>
#include <stddef.h>

/* The variant choice, with the thresholds in c already
 * picked (and in force); `steps` counted on the progress line.  tiny: a
 * few pairs where a cell is confirmed or glibc timed against itself. */
struct measure_settings;
struct progress;
void calibrate_measure_classes(struct calibration *c, struct measure_settings *s, struct progress *bar, bool tiny);
/* Whether the band choice weighs variant `name`: glibc's and the vector ones. */
bool calibrate_is_candidate(const char *name);
/* The largest size a band draws (for the buffers), and the steps. */
size_t calibrate_classes_largest(void);
unsigned calibrate_classes_steps(void);

#endif
