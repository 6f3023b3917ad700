/* The policies MEMSHIM_IMPL and the per-function variables may name
 * instead of a variant or bands.  Each picks bands for a function from
 * what it is given: the CPU's features and this machine's calibration
 * file's choices (which only the default policy follows), so that a test
 * can describe a CPU and a file other than the ones it runs with. */
#ifndef MEMSHIM_POLICIES_H
#define MEMSHIM_POLICIES_H

#include "dispatch/bands.h"
#include "dispatch/calibration.h"
#include "dispatch/cpu_features.h"
#include "dispatch/settings.h"

/* pick returns where its bands came from, so that the default's source
 * (calibration file, CPU row, built-in) is known without reading its reason. */
struct policy {
	const char *name;
	enum setting_origin (*pick)(const struct cpu_features *f, const struct calibration_choices *file, enum base_function fn,
	             struct band_list *out, const char **why);
};

/* The kernel's: one variant from ERMS and FSRM, the same for every function. */
enum setting_origin kernel_policy_bands(const struct cpu_features *f, const struct calibration_choices *file,
                                        enum base_function fn, struct band_list *out, const char **why);

const struct policy *policy_named(const char *name); /* NULL if none */
const struct policy *policy_default(void);
const struct policy *policy_number(unsigned i); /* 0, 1, ...; NULL past the last */

#endif
