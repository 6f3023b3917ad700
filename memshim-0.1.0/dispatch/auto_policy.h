/* The auto policy: the best vector variant this CPU can run, with a rep
 * movsb band where the CPU has ERMS, and its built-in thresholds. */
#ifndef MEMSHIM_AUTO_POLICY_H
#define MEMSHIM_AUTO_POLICY_H

#include "dispatch/cpu_features.h"
#include "dispatch/thresholds.h"
#include "dispatch/variants.h"

/* The row auto picks for fn on this CPU, and why: the measured best where
 * this CPU class was measured, else the widest vectors it runs. */
const struct variant *auto_policy_variant(const struct cpu_features *f, enum base_function fn,
                                          const char **why);

/* The default policy: auto where this CPU class was measured (there auto
 * is at or below glibc's time in every size class), else glibc's own, so
 * that preloading the library never makes a program slower. */
const struct variant *default_policy_variant(const struct cpu_features *f, enum base_function fn,
                                             const char **why);

/* Sets t's auto_movsb, auto_stosb and nt to the built-in values for this
 * CPU; the environment may override them afterwards. */
void auto_default_thresholds(const struct cpu_features *f, struct thresholds *t);

#endif
