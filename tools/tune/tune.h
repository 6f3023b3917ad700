/* memshim tune's own parts: the prediction, its check against what the
 * dumps measured, and the calibration file. */
#ifndef MEMSHIM_TUNE_H
#define MEMSHIM_TUNE_H

#include "dispatch/config.h"
#include "tools/util/calibration.h"
#include "tools/util/cost_model.h"

#include <stdbool.h>
#include <stddef.h>

struct dump;

/* The default a preloaded program gets: its variants (no variable naming
 * one), its thresholds, and where each came from, as memshim info says:
 * what tune's "against the default" means. */
struct tune_default {
	const char *variant[FN_COUNT]; /* bands in their text form: a variant is one band */
	char text[FN_COUNT][BAND_TEXT_MAX];
	double t[T_COUNT];
	enum threshold_origin origin[T_COUNT];
};

/* predict.c: per function, each variant ranked at its best thresholds for
 * the dumps' calls, then the best setting and its saving against the default
 * and glibc, and the check (check.c).  Exit status. */
int tune_predict(const struct calibration *c, const struct dump *d, const struct tune_default *def);

/* check.c: the model against what the dumps' profile measured. */
/* ns per unit of the calibration's costs (cycles: the rate measured now); 0 if unknown. */
double tune_ns_per_unit(const struct calibration *c);
/* The line under a predicted saving (in the calibration's unit): how much
 * of the program's CPU time it is, or why that is unknown. */
void tune_print_share(const struct calibration *c, const struct dump *d, double saving);
/* Per function with calls: the model's time under the variant that ran
 * against the time measured inside, and when they disagree, why likely. */
void tune_check(const struct calibration *c, const struct dump *d, const struct cm_workload w[FN_COUNT]);
/* Whether that check refutes the model where the time is: a function's
 * profiled time, or its timed calls in the size classes holding most of its
 * timed time, off by more than 2x beyond both ranges; why names which. */
bool tune_check_refutes(const struct calibration *c, const struct dump *d, const struct cm_workload w[FN_COUNT],
			char *why, size_t size);

/* file.c.  calibration_write writes a temporary file in the same
 * folder and renames it over path once it is complete and on disk; a
 * SIGINT or SIGTERM meanwhile removes the temporary file (the old file,
 * if any, stays as it was). */
bool calibration_write(const char *path, const struct calibration *c, char *why, size_t why_size);
/* Installs that SIGINT/SIGTERM handler (it also ends a progress line). */
void calibration_guard_signals(void);
bool calibration_read(const char *path, struct calibration *c, char *why, size_t why_size);

#endif
