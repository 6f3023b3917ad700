/* A calibration measured on this machine (memshim tune --calibrate and
 * cpu-row --calibrate). */
#ifndef MEMSHIM_CALIBRATE_H
#define MEMSHIM_CALIBRATE_H

#include "tools/calibrate/curves.h"

/* How long a calibration takes: tiny (for the tests), quick or full, each
 * within the limit its --help states (D30). */
enum calibration_level { CALIBRATE_TINY, CALIBRATE_QUICK, CALIBRATE_FULL };

/* Measures the curves into c, picks the calibration file's
 * thresholds, and chooses each function's variant, with a progress line on
 * a terminal.  Exit status. */
int calibrate_measure(struct calibration *c, enum calibration_level level);

/* The level whose calibration has `rounds` rounds ("tiny", "quick",
 * "full"), or NULL: another memshim's, or one made by hand. */
const char *calibrate_level_name(unsigned rounds);

#endif
