/* The settings' table (dispatch/settings.c): every setting the library
 * resolves at start-up, each function's variant and each size threshold,
 * with its variable, its name, its calibration-file key and its CPU-row
 * key; and the one order a setting's value is resolved in.  Read without
 * the C library: the resolvers read it while the dynamic linker relocates. */
#ifndef MEMSHIM_SETTINGS_H
#define MEMSHIM_SETTINGS_H

#include "shim/base_function.h"

#include <stdbool.h>
#include <stddef.h>

/* The size thresholds, one each, which every variant that uses it reads.
 * T_COUNT: the thresholds memshim tune models and chooses.  After them,
 * the rep range's stop, a variable and a row's only (T_ALL: every threshold). */
enum threshold_name { T_MOVSB, T_STOSB, T_NT, T_COUNT, T_MOVSB_STOP = T_COUNT, T_ALL };

/* Every setting: the variant of all functions, of each function (in
 * enum base_function's order), then the thresholds (in enum threshold_name's). */
enum setting_id { S_IMPL, S_MEMCPY, S_MEMMOVE, S_MEMSET, S_THRESHOLD, S_ALL = S_THRESHOLD + T_ALL };

/* Where a setting's value came from, the first of these that gives one. */
enum setting_origin { FROM_BUILTIN, FROM_ROW, FROM_FILE, FROM_ENVIRONMENT };

/* "built-in", "CPU row", "calibration file", "environment": for descriptions. */
const char *setting_origin_name(enum setting_origin o);

/* A setting's names: its variable ("MEMSHIM_MEMCPY"), its name in
 * descriptions ("memcpy", "movsb"), its key in the calibration file
 * and in a CPU row (NULL: that source never gives it), and the key a
 * calibration file used before (old_file_key, still read; NULL: none).
 * A threshold's also: its member of struct thresholds and of struct cpu_row (0: a row
 * never gives it), the words that follow its variable's value when that
 * is 0 (NULL: 0 is a value meant) or below `least`, which it is taken with. */
struct setting_keys {
	const char *variable, *name, *file_key, *row_key, *old_file_key;
	size_t member, row_member;
	const char *zero;
	size_t least;
	const char *below_least;
};
const struct setting_keys *setting_keys(enum setting_id s);

/* The setting of function fn's variant, and of threshold t. */
static inline enum setting_id function_setting(enum base_function fn)
{
	return (enum setting_id)(S_MEMCPY + fn);
}
static inline enum setting_id threshold_setting(enum threshold_name t)
{
	return (enum setting_id)(S_THRESHOLD + t);
}

/* Threshold t's entry of the table. */
static inline const struct setting_keys *threshold_keys(enum threshold_name t)
{
	return setting_keys(threshold_setting(t));
}

/* The first setting that `variable` sets; S_ALL if none does. */
enum setting_id setting_of_variable(const char *variable);

/* Where a setting's value comes from when its variable gives none: the
 * calibration file where it gives one, else the CPU row, else the
 * built-in value.  The one order every setting is resolved in. */
enum setting_origin setting_fallback(bool in_file, bool in_row);

#endif
