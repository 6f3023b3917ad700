/* The presets' names, the kernel's, and the name of the default
 * (dispatch/presets.h). */
#include "dispatch/presets.h"

#include "dispatch/default_bands.h"
#include "dispatch/early_env.h"

enum setting_origin kernel_bands(const struct cpu_features *f, const struct calibration_choices *file,
                                        enum base_function fn, struct band_list *out, const char **why)
{
	(void)file;
	(void)fn; /* the kernel's choice is the same for every function */
	const struct variant *v = f->fsrm ? VARIANT(fsrm) : f->erms ? VARIANT(erms) : VARIANT(movsq);
	*why = f->fsrm ? "CPU has FSRM" : f->erms ? "CPU has ERMS, not FSRM" : "CPU has neither ERMS nor FSRM";
	*out = band_list_single(v);
	return FROM_BUILTIN;
}

enum { KERNEL_PRESET, DEFAULT_PRESET, PRESET_COUNT };

static const struct preset presets[PRESET_COUNT] = {
	[KERNEL_PRESET] = { "kernel", kernel_bands },
	[DEFAULT_PRESET] = { "default", default_bands },
};

/* What every function gets when no variable names a variant
 * (dispatch/default_bands.c). */
const struct preset *preset_default(void) { return &presets[DEFAULT_PRESET]; }

const struct preset *preset_named(const char *name)
{
	/* auto was the default without the calibration file: a second name
	 * for the same choice on every machine not calibrated, folded in */
	if (same_string(name, "auto"))
		return preset_default();
	for (unsigned i = 0; i < PRESET_COUNT; i++)
		if (same_string(presets[i].name, name))
			return &presets[i];
	return NULL;
}

const struct preset *preset_number(unsigned i)
{
	return i < PRESET_COUNT ? &presets[i] : NULL;
}
