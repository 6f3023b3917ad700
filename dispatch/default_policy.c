/* THE DEFAULT POLICY: what every function gets when no variable names a
 * variant.  It was the kernel's; it is now what `memshim tune --calibrate`
 * chose on this machine (the calibration file), else the shipped row of
 * this CPU class (dispatch/cpu_rows.h: bands measured at or below glibc in
 * every size class), and glibc's own functions elsewhere, so that
 * preloading the library never makes a program slower. */
#include "dispatch/default_policy.h"

#include "dispatch/cpu_rows.h"

void default_policy_bands(const struct cpu_features *f, const struct calibration_choices *file,
                          enum base_function fn, struct band_list *out, const char **why)
{
	if (file && file->bands[fn].count) {
		*why = file->why[fn];
		*out = file->bands[fn];
		return;
	}
	if (cpu_row_choice(f, fn, out, why))
		return;
	*why = "this CPU class has no shipped row: the C library's own (memshim tune --calibrate finds better)";
	*out = band_list_single(VARIANT(glibc));
}
