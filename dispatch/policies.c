/* The policies: their names, the kernel's, and which one is the default
 * (dispatch/policies.h). */
#include "dispatch/policies.h"

#include "dispatch/default_policy.h"
#include "dispatch/early_env.h"

enum setting_origin kernel_policy_bands(const struct cpu_features *f, const struct calibration_choices *file,
                                        enum base_function fn, struct band_list *out, const char **why)
{
	(void)file;
	(void)fn; /* the kernel's choice is the same for every function */
	const struct variant *v = f->fsrm ? VARIANT(fsrm) : f->erms ? VARIANT(erms) : VARIANT(movsq);
	*why = f->fsrm ? "CPU has FSRM" : f->erms ? "CPU has ERMS, not FSRM" : "CPU has neither ERMS nor FSRM";
	*out = band_list_single(v);
	return FROM_BUILTIN;
}

enum { KERNEL_POLICY, DEFAULT_POLICY, POLICY_COUNT };

static const struct policy policies[POLICY_COUNT] = {
	[KERNEL_POLICY] = { "kernel", kernel_policy_bands },
	[DEFAULT_POLICY] = { "default", default_policy_bands },
};

/* What every function gets when no variable names a variant
 * (dispatch/default_policy.c). */
const struct policy *policy_default(void) { return &policies[DEFAULT_POLICY]; }

const struct policy *policy_named(const char *name)
{
	/* auto was the default without the calibration file: a second name
	 * for the same choice on every machine not calibrated, folded in */
	if (same_string(name, "auto"))
		return policy_default();
	for (unsigned i = 0; i < POLICY_COUNT; i++)
		if (same_string(policies[i].name, name))
			return &policies[i];
	return NULL;
}

const struct policy *policy_number(unsigned i)
{
	return i < POLICY_COUNT ? &policies[i] : NULL;
}
