/* The auto policy: the best vector variant this CPU can run, with a rep
 * movsb band where the CPU has ERMS, and its built-in thresholds. */
#ifndef MEMSHIM_AUTO_POLICY_H
#define MEMSHIM_AUTO_POLICY_H

#include "dispatch/cpu_features.h"
#include "dispatch/thresholds.h"
#include "dispatch/variants.h"

/* The row auto picks on this CPU, and why. */
const struct variant *auto_policy_variant(const struct cpu_features *f, const char **why);

/* Sets t's auto_movsb, auto_stosb and nt to the built-in values for this
 * CPU; the environment may override them afterwards. */
void auto_default_thresholds(const struct cpu_features *f, struct thresholds *t);

#endif
