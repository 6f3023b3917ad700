/* The default: what every function gets when no variable names a
 * variant (dispatch/default_bands.c). */
#ifndef MEMSHIM_DEFAULT_BANDS_H
#define MEMSHIM_DEFAULT_BANDS_H

#include "dispatch/bands.h"
#include "dispatch/calibration.h"
#include "dispatch/cpu_features.h"
#include "dispatch/settings.h"

/* The bands of `file` (this machine's calibration file; NULL: none) where
 * it chose some for fn, else the shipped row's for a CPU with features f,
 * else glibc's own; and why.  Returns which of the three it was. */
enum setting_origin default_bands(const struct cpu_features *f, const struct calibration_choices *file,
                                         enum base_function fn, struct band_list *out, const char **why);

#endif
