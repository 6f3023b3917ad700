/* Resolving the thresholds: each one's value from the first source that
 * gives one (dispatch/read_thresholds.c); their names, members and
 * warnings are in the settings' table (dispatch/settings.h). */
#ifndef MEMSHIM_READ_THRESHOLDS_H
#define MEMSHIM_READ_THRESHOLDS_H

#include "dispatch/settings.h"
#include "shim/thresholds.h"

#include <stddef.h>

/* Where a threshold's value may come from, in the order tried after its
 * variable: the calibration file's values (NULL: no file), the CPU row
 * (NULL: none), and the built-in values (builtin_thresholds). */
struct cpu_row;
struct threshold_sources {
	const struct thresholds *file;
	const struct cpu_row *row;
	const struct thresholds *builtin;
};
/* Threshold t's value and where it came from: its variable (a bad value
 * said, and passed over), else the file's, else the row's, else the
 * built-in one.  The one order every threshold is resolved in. */
size_t threshold_resolve(enum threshold_name t, const struct threshold_sources *from, enum setting_origin *origin);
/* Threshold t's member of th, and its value. */
size_t *threshold_member(struct thresholds *th, enum threshold_name t);
size_t threshold_value(const struct thresholds *th, enum threshold_name t);

#endif
