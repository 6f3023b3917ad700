/* The policies: how a row of the variant table is picked from the CPU's
 * features, and the default one (dispatch/config_internal.h). */
#include "dispatch/config_internal.h"

#include "dispatch/auto_policy.h"
#include "dispatch/early_env.h"

void kernel_policy_bands(const struct cpu_features *f, enum base_function fn, struct band_list *out,
                         const char **why)
{
	(void)fn; /* the kernel's choice is the same for every function */
	const struct variant *v = f->fsrm ? VARIANT(fsrm) : f->erms ? VARIANT(erms) : VARIANT(movsq);
	*why = f->fsrm ? "CPU has FSRM" : f->erms ? "CPU has ERMS, not FSRM" : "CPU has neither ERMS nor FSRM";
	*out = band_list_single(v);
}

enum { KERNEL_POLICY, AUTO_POLICY, DEFAULT_POLICY, POLICY_COUNT };

/* The calibration file's choices, once read_calibration applied a file
 * that has them (before any policy picks). */
static const struct calibration_choices *file_choices;

void policy_follow_calibration(const struct calibration_choices *choices) { file_choices = choices; }

/* The default policy: this machine's calibration file where it chose
 * bands for fn, else the built-in choice for the CPU class. */
static void calibrated_default_bands(const struct cpu_features *f, enum base_function fn, struct band_list *out,
                                     const char **why)
{
	if (file_choices && file_choices->bands[fn].count) {
		*why = file_choices->why[fn];
		*out = file_choices->bands[fn];
		return;
	}
	default_policy_bands(f, fn, out, why);
}

static const struct policy policies[POLICY_COUNT] = {
	[KERNEL_POLICY] = { "kernel", kernel_policy_bands },
	[AUTO_POLICY] = { "auto", auto_policy_bands },
	[DEFAULT_POLICY] = { "default", calibrated_default_bands },
};

/* THE DEFAULT POLICY: what every function gets when no variable names a
 * variant.  It was the kernel's; it is now what `memshim tune --calibrate`
 * chose on this machine (the calibration file), else the shipped row of
 * this CPU class (dispatch/cpu_rows.h: bands measured at or below glibc in
 * every size class), and glibc's own functions elsewhere. */
static const struct policy *const default_policy = &policies[DEFAULT_POLICY];

const struct policy *policy_default(void) { return default_policy; }

void config_default_bands(enum base_function fn, struct band_list *out, const char **why)
{
	config_get(); /* the calibration file, if any, is read */
	default_policy->pick(cpu_features(), fn, out, why);
}

const struct policy *policy_named(const char *name)
{
	for (unsigned i = 0; i < POLICY_COUNT; i++)
		if (same_string(policies[i].name, name))
			return &policies[i];
	return NULL;
}

const char *config_policy(unsigned i, enum base_function fn, struct band_list *picks, const char **why)
{
	if (i >= POLICY_COUNT)
		return NULL;
	config_get();
	policies[i].pick(cpu_features(), fn, picks, why);
	return policies[i].name;
}

bool config_name_known(const char *name)
{
	return variant_named(name) || policy_named(name);
}

/* Whether a and b are the same text but for the case of ASCII letters. */
static bool same_but_case(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
		char y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
		if (x != y)
			return false;
	}
	return *a == *b;
}

const char *config_name_in_other_case(const char *name)
{
	for (unsigned i = 0; i < variant_count; i++)
		if (same_but_case(variant_table[i].name, name))
			return variant_table[i].name;
	for (unsigned i = 0; i < POLICY_COUNT; i++)
		if (same_but_case(policies[i].name, name))
			return policies[i].name;
	return NULL;
}
