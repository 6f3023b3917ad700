/* memshim tune: the pieces shared by its files.
 *
 * The calibration file (dispatch/calibration.h has its first five lines,
 * the library's part) goes on with the curves memshim tune measured:
 *
 *   unit cycles                    the unit of every cost below
 *   clock CPU cycles (...)         how they were taken
 *   rounds 11                      costs per grid size
 *   curve memcpy avx2 44           function, measured curve, grid sizes;
 *   0 3.1 3.0 ...                  then one line per size: the mean size
 *   ...                            of the calls timed, each round's cost
 *   end
 *
 * The measured curves are each usable variant with its thresholds at
 * "never" (erms: its scalar part; sse2, avx2, avx512: the cached loop),
 * and NAME:nt for the vector variants with non-temporal stores from the
 * first size that can take them.  The *_erms rows and every threshold
 * are composed from these (tune.c). */
#ifndef MEMSHIM_TUNE_H
#define MEMSHIM_TUNE_H

#include "dispatch/config.h"
#include "dispatch/variants.h"
#include "tools/cost_model.h"

#include <stdbool.h>
#include <stddef.h>

#define TUNE_MAX_CURVES 48

struct named_curve {
	enum base_function fn;
	char name[24];
	struct cm_curve curve;
};

struct calibration {
	char vendor[16];
	unsigned family, model;
	size_t auto_movsb, auto_stosb, nt; /* the library's part */
	char unit[16], clock[256];
	unsigned rounds, count;
	struct named_curve curves[TUNE_MAX_CURVES];
};

/* tune.c */
int cmd_tune(int argc, char **argv);
const struct cm_curve *calibration_curve(const struct calibration *c, enum base_function fn, const char *name);
/* The best values of the thresholds t[] (in: the starting point) for
 * running each function fn with variant[fn] on workload w[fn] (functions
 * without calls are left out); the predicted total. */
double tune_thresholds(const struct calibration *c, const char *const variant[FN_COUNT],
		       const struct cm_workload w[FN_COUNT], double t[T_COUNT]);
/* The built-in thresholds of this CPU, the ones the library starts from. */
void tune_builtin_thresholds(double t[T_COUNT]);
/* The cost of fn's workload w under `variant` with thresholds t, in round
 * (or CM_MEDIAN); -1 if a curve it needs is missing. */
double tune_function_cost(const struct calibration *c, enum base_function fn, const char *variant,
			  const double t[T_COUNT], const struct cm_workload *w, unsigned round);

/* tune_check.c: the model against what the dumps' profile measured. */
struct dump;
/* ns per unit of the calibration's costs (cycles: the rate measured now); 0 if unknown. */
double tune_ns_per_unit(const struct calibration *c);
/* The line under a predicted saving (in the calibration's unit): how much
 * of the program's CPU time it is, or why that is unknown. */
void tune_print_share(const struct calibration *c, const struct dump *d, double saving);
/* Per function with calls: the model's time under the variant that ran
 * against the time measured inside, and when they disagree, why likely. */
void tune_check(const struct calibration *c, const struct dump *d, const struct cm_workload w[FN_COUNT]);

/* tune_calibrate.c: measures the curves into c and picks the auto
 * policy's thresholds; `tiny` keeps it to about a second (for tests).
 * Exit status. */
int tune_measure(struct calibration *c, bool tiny);

/* tune_file.c */
bool calibration_write(const char *path, const struct calibration *c, char *why, size_t why_size);
bool calibration_read(const char *path, struct calibration *c, char *why, size_t why_size);

#endif
