/* The policies: how a row of the variant table is picked from the CPU's
 * features, and the default one (dispatch/config_internal.h). */
#include "dispatch/config_internal.h"

#include "dispatch/auto_policy.h"
#include "dispatch/early_env.h"

const struct variant *kernel_policy_variant(const struct cpu_features *f, enum base_function fn,
                                            const char **why)
{
	(void)fn; /* the kernel's choice is the same for every function */
	if (f->fsrm) {
		*why = "CPU has FSRM";
		return variant_named("fsrm");
	}
	if (f->erms) {
		*why = "CPU has ERMS, not FSRM";
		return variant_named("erms");
	}
	*why = "CPU has neither ERMS nor FSRM";
	return variant_named("movsq");
}

enum { KERNEL_POLICY, AUTO_POLICY, DEFAULT_POLICY, POLICY_COUNT };

/* The calibration file's choices, once read_calibration applied a file
 * that has them (before any policy picks). */
static const struct calibration_choices *file_choices;

void policy_follow_calibration(const struct calibration_choices *choices) { file_choices = choices; }

/* The default policy: this machine's calibration file where it chose a
 * variant for fn, else the built-in choice for the CPU class. */
static const struct variant *calibrated_default_variant(const struct cpu_features *f, enum base_function fn,
                                                        const char **why)
{
	if (file_choices && file_choices->variant[fn]) {
		*why = file_choices->why[fn];
		return file_choices->variant[fn];
	}
	return default_policy_variant(f, fn, why);
}

static const struct policy policies[POLICY_COUNT] = {
	[KERNEL_POLICY] = { "kernel", kernel_policy_variant },
	[AUTO_POLICY] = { "auto", auto_policy_variant },
	[DEFAULT_POLICY] = { "default", calibrated_default_variant },
};

/* THE DEFAULT POLICY: what every function gets when no variable names a
 * variant.  It was the kernel's; it is now what `memshim tune --calibrate`
 * chose on this machine (the calibration file), else auto where auto was
 * measured at or below glibc in every size class (dispatch/auto_policy.c),
 * and glibc's own functions elsewhere. */
static const struct policy *const default_policy = &policies[DEFAULT_POLICY];

const struct policy *policy_default(void) { return default_policy; }

const struct variant *config_default_variant(enum base_function fn, const char **why)
{
	config_get(); /* the calibration file, if any, is read */
	return default_policy->pick(cpu_features(), fn, why);
}

const struct policy *policy_named(const char *name)
{
	for (unsigned i = 0; i < POLICY_COUNT; i++)
		if (same_string(policies[i].name, name))
			return &policies[i];
	return NULL;
}

const char *config_policy(unsigned i, enum base_function fn, const struct variant **picks, const char **why)
{
	if (i >= POLICY_COUNT)
		return NULL;
	config_get();
	*picks = policies[i].pick(cpu_features(), fn, why);
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
