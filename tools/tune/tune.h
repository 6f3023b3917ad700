/* memshim tune's own parts: the prediction, its check against what the
 * dumps measured, and the calibration file. */
#ifndef MEMSHIM_TUNE_H
#define MEMSHIM_TUNE_H

#include "dispatch/config.h"
#include "shim/thresholds.h"
#include "tools/calibrate/curves.h"
#include "tools/calibrate/cost_model.h"

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
	enum setting_origin origin[T_COUNT];
};

/* predict.c: per function, each variant ranked at its best thresholds for
 * the dumps' calls, then the best setting and its saving against the default
 * and glibc, and the check (check.c).  Exit status. */
int tune_predict(const struct calibration *c, const struct dump *d, const struct tune_default *def);

/* check.c: the model against what the dumps' profile measured. */
/* ns per unit of the calibration's costs (cycles: the rate measured now); 0 if unknown. */
double tune_ns_per_unit(const struct calibration *c);
/* The line under a predicted saving (in the calibration's unit; fraction:
 * the same saving as a fraction of the time in these functions): how much
 * of the program's CPU time it is, or why that is unknown; and where it is
 * too small for memshim ab to resolve, which A/B could. */
void tune_print_share(const struct calibration *c, const struct dump *d, double saving, double fraction);
/* Per function with calls: the model's time under the variant that ran
 * against the time measured inside, and when they disagree, why likely. */
void tune_check(const struct calibration *c, const struct dump *d, const struct cm_workload w[FN_COUNT]);
/* Whether that check refutes the model where the time is: a function's
 * profiled time, or its timed calls in the size classes holding most of its
 * timed time, off by more than 2x beyond both ranges; why names which. */
bool tune_check_refutes(const struct calibration *c, const struct dump *d, const struct cm_workload w[FN_COUNT],
			char *why, size_t size);

/* A setting a user can run, as the library would run it: each function's
 * bands and the thresholds in force. */
struct tune_setting {
	char text[FN_COUNT][BAND_TEXT_MAX];
	struct band_list bands[FN_COUNT];
	struct thresholds t;
};

/* setting.c: --impl's value: MEMSHIM_IMPL's syntax (a variant, bands, a
 * preset), or an environment line as tune prints it (the variables of the
 * settings' table, dispatch/settings.h, that tune models).  What it leaves unsaid is what
 * a program started in this environment gets (this process's own
 * configuration: the calibration file, the variables).  False and why. */
bool tune_setting_parse(const char *value, struct tune_setting *out, char *why, size_t size);
/* The setting of text[fn] (a variant or bands) with thresholds t; false if
 * one is not a setting this machine runs. */
bool tune_setting_of(const char *const text[FN_COUNT], const double t[T_COUNT], struct tune_setting *out);
/* The thresholds of s as the model takes them. */
void tune_setting_thresholds(const struct tune_setting *s, double t[T_COUNT]);

/* replay.c: setting `mine` against `base` (NULL: glibc) on the dump's windows of calls
 * (tools/measure/replay.h), each size class in the placement a program's
 * calls of that size most likely see, weighted by the histogram's calls
 * and glibc's time per call.  [FN_COUNT] is every function together. */
struct tune_replayed {
	bool has[FN_COUNT + 1];
	double ratio[FN_COUNT + 1], low[FN_COUNT + 1], high[FN_COUNT + 1];
	double left_out[FN_COUNT]; /* share of the function's calls in classes the windows barely hold */
	double by_timing[FN_COUNT]; /* share of its calls in classes placed by the program's timed calls */
	unsigned rounds;
};
/* False (said) if the dump has no windows, memory runs out or the library
 * cannot be loaded. */
/* How to replay: `place` an enum placement (tools/measure/placement.h) for
 * every class, or TUNE_PLACE_BY_SIZE, or TUNE_PLACE_BY_TIMING (each class
 * where the program's own timed calls put it, by size where it has none);
 * `fenced`: each call alone between fences, as ab --timing's timed calls
 * run, instead of in a stream. */
#define TUNE_PLACE_BY_SIZE PLACE_COUNT
#define TUNE_PLACE_BY_TIMING (PLACE_COUNT + 1)
struct tune_replay_how {
	int place;
	bool fenced;
};
bool tune_replay(const struct dump *d, const struct tune_setting *mine, const struct tune_setting *base,
		 struct tune_replay_how how, struct tune_replayed *out);

/* predict.c: tune --impl from the histogram: setting against glibc by the
 * model; out as tune_replay's (left_out unused).  False if a curve is missing. */
bool tune_model_setting(const struct calibration *c, const struct dump *d, const struct tune_setting *s,
			struct tune_replayed *out);

/* impl.c: tune --impl SETTING: the prediction printed, from `basis`
 * ("replay", "histogram", or NULL: the replay where there are windows),
 * the replay done as `how` says.
 * c may be NULL when the replay needs no calibration.  Exit status. */
int tune_impl(const struct calibration *c, const struct dump *d, const char *setting, const char *basis,
	      struct tune_replay_how how);

/* file.c.  calibration_write writes a temporary file in the same
 * folder and renames it over path once it is complete and on disk; a
 * SIGINT or SIGTERM meanwhile removes the temporary file (the old file,
 * if any, stays as it was). */
bool calibration_write(const char *path, const struct calibration *c, char *why, size_t why_size);
/* Installs that SIGINT/SIGTERM handler (it also ends a progress line). */
void calibration_guard_signals(void);
bool calibration_read(const char *path, struct calibration *c, char *why, size_t why_size);

#endif
