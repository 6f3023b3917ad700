/* The thresholds' table: each threshold's variable, calibration-file key
 * and CPU-row key, and the one order its value is resolved in
 * (dispatch/read_thresholds.c).  Below the configuration: the calibration
 * file's reader and writer read their keys here too. */
#ifndef MEMSHIM_READ_THRESHOLDS_H
#define MEMSHIM_READ_THRESHOLDS_H

#include "shim/thresholds.h"

#include <stddef.h>

/* The size thresholds, and where each value came from.  T_COUNT: the thresholds memshim tune models and chooses.  After them, the
 * rep band's stop, a variable and a row's only (T_ALL: every threshold). */
enum threshold_name { T_ERMS, T_STOSB, T_AUTO_MOVSB, T_AUTO_STOSB, T_NT, T_COUNT, T_AUTO_MOVSB_STOP = T_COUNT, T_ALL };
enum threshold_origin { FROM_BUILTIN, FROM_ROW, FROM_FILE, FROM_ENVIRONMENT };

/* Where a threshold's value may come from, in the order tried after its
 * variable: the calibration file's values (NULL: no file), the CPU row
 * (NULL: none), and the built-in values (auto_default_thresholds). */
struct cpu_row;
struct threshold_sources {
	const struct thresholds *file;
	const struct cpu_row *row;
	const struct thresholds *builtin;
};
/* Threshold t's value and where it came from: its variable (a bad value
 * said, and passed over), else the file's, else the row's, else the
 * built-in one.  The one order every threshold is resolved in. */
size_t threshold_resolve(enum threshold_name t, const struct threshold_sources *from, enum threshold_origin *origin);
/* Threshold t's key in the calibration file ("auto_movsb"); NULL if the file has none. */
const char *threshold_file_key(enum threshold_name t);

/* The variable that sets threshold t ("MEMSHIM_MOVSB_THRESHOLD", ...). */
const char *config_threshold_variable(enum threshold_name t);
/* Threshold t's name in descriptions ("erms", "auto_movsb", ...). */
const char *threshold_short_name(enum threshold_name t);
/* Threshold t's member of th, and its value. */
size_t *threshold_member(struct thresholds *th, enum threshold_name t);
size_t threshold_value(const struct thresholds *th, enum threshold_name t);

#endif
