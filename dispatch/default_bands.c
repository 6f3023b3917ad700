/* THE DEFAULT: what every function gets when no variable names a
 * variant.  It was the kernel's; it is now what `memshim tune --calibrate`
 * chose on this machine (the calibration file), else the shipped row of
 * this CPU class (dispatch/cpu_rows.h: bands measured at or below glibc in
 * every size class), and glibc's own functions elsewhere, so that
 * preloading the library never makes a program slower. */
#include "dispatch/default_bands.h"

#include "dispatch/cpu_rows.h"
#include "dispatch/settings.h"

enum setting_origin default_bands(const struct cpu_features *f, const struct calibration_choices *file,
                                         enum base_function fn, struct band_list *out, const char **why)
{
	struct band_list row;
	const char *row_why;
	bool in_row = cpu_row_choice(f, fn, &row, &row_why);
	enum setting_origin from = setting_fallback(file && file->bands[fn].count, in_row);
	switch (from) {
	case FROM_FILE:
		*why = file->why[fn];
		*out = file->bands[fn];
		break;
	case FROM_ROW:
		*why = row_why;
		*out = row;
		break;
	default:
		*why = "this CPU class has no shipped row: the C library's own (memshim tune --calibrate finds better)";
		*out = band_list_single(VARIANT(glibc));
	}
	return from;
}
