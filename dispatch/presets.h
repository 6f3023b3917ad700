/* The names MEMSHIM_IMPL and the per-function variables may give instead
 * of a variant or bands: the named presets (kernel: the kernel's choice),
 * and default, which names the default (dispatch/default_bands.h), so that
 * one variable can put back what another changed.  Each picks bands for a
 * function from what it is given: the CPU's features and this machine's
 * calibration file's choices (which only the default follows), so that a
 * test can describe a CPU and a file other than the ones it runs with. */
#ifndef MEMSHIM_PRESETS_H
#define MEMSHIM_PRESETS_H

#include "dispatch/bands.h"
#include "dispatch/calibration.h"
#include "dispatch/cpu_features.h"
#include "dispatch/settings.h"

/* pick returns where its bands came from, so that the default's source
 * (calibration file, CPU row, built-in) is known without reading its reason. */
struct preset {
	const char *name;
	enum setting_origin (*pick)(const struct cpu_features *f, const struct calibration_choices *file, enum base_function fn,
	             struct band_list *out, const char **why);
};

/* The kernel's: one variant from ERMS and FSRM, the same for every function. */
enum setting_origin kernel_bands(const struct cpu_features *f, const struct calibration_choices *file,
                                        enum base_function fn, struct band_list *out, const char **why);

const struct preset *preset_named(const char *name); /* NULL if none */
const struct preset *preset_default(void);
const struct preset *preset_number(unsigned i); /* 0, 1, ...; NULL past the last */

#endif
