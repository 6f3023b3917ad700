/* The built-in values: what memshim takes where nothing measured on this
 * machine or its CPU class says otherwise.  The widest vectors a CPU runs
 * (the calibration's starting point), and the built-in thresholds.  Every
 * function takes the CPU's features as a parameter, so that a test can
 * describe a CPU other than the one it runs on. */
#ifndef MEMSHIM_BUILTIN_H
#define MEMSHIM_BUILTIN_H

#include "dispatch/bands.h"
#include "dispatch/cpu_features.h"
#include "shim/thresholds.h"

/* The widest vectors the CPU runs, with a rep movsb range where it has
 * ERMS, and why. */
const struct variant *widest_vector_variant(const struct cpu_features *f, const char **why);

/* Sets t to the built-in values for this CPU (movsb_stop: none), and
 * movsb, stosb and movsb_stop to its shipped row's where the row gives
 * them; the environment may override them afterwards. */
void builtin_thresholds(const struct cpu_features *f, struct thresholds *t);

#endif
