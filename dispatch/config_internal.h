/* The steps of reading the configuration, which only config.c calls, in
 * this order; outside them, dispatch/config.h.  Each takes what it acts on
 * and fills in what it produces: no step sets another's state.
 *
 *   read_environment.c   the MEMSHIM_* names not known, MEMSHIM_VERBOSE,
 *                        MEMSHIM_BIND
 *   read_calibration.c   the calibration file: thresholds and choices
 *   choose_variants.c    each function's variant, from the variables that
 *                        name one, else the default
 *                        (dispatch/presets.h, dispatch/default_bands.h)
 *   read_thresholds.c    each threshold's value, in the settings' order
 *                        (dispatch/settings.h: every setting's names)
 *   read_recording.c     the recording settings
 *   read_ab.c            the in-process A/B's settings
 *   describe.c           the descriptions of the choice
 *   parse_count.c        parsing whole numbers, for the others */
#ifndef MEMSHIM_CONFIG_INTERNAL_H
#define MEMSHIM_CONFIG_INTERNAL_H

#include "dispatch/calibration.h"
#include "dispatch/config.h"

/* read_environment.c: unknown MEMSHIM_* names, each reported. */
void report_unknown_variables(void);
/* MEMSHIM_VERBOSE; false unless 1. */
bool read_verbose(void);
/* MEMSHIM_BIND: whether one-band functions are bound without the stub. */
bool read_binding(void);

/* read_calibration.c: the file's thresholds into t, its path into `path`
 * and its choices into `choices`; false ("" in path, t and choices
 * untouched) when no file was applied. */
bool read_calibration(bool secure, struct thresholds *t, char path[HIST_PATH_MAX],
                      struct calibration_choices *choices);

/* choose_variants.c: every function's choice, for a CPU with features f
 * and the calibration file's choices `file`. */
void choose_variants(const struct cpu_features *f, const struct calibration_choices *file,
                     struct function_choice choice[FN_COUNT]);

/* choose_variants.c: the bands fn gets where MEMSHIM_IMPL is `value`, as
 * choose_variants() would choose them; NULL, or the problem in words.
 * value may also be a line of variables as tune prints a setting
 * ("MEMSHIM_MEMCPY=avx2 MEMSHIM_MEMMOVE=evex"): fn's word counts. */
const char *choose_setting(const struct cpu_features *f, const struct calibration_choices *file, const char *value,
                           enum base_function fn, struct band_list *out);


/* read_recording.c: the recording settings of c (c->secure read). */
void read_recording(struct config *c);

/* read_ab.c: MEMSHIM_AB and MEMSHIM_AB_BLOCK into c (recording read),
 * each setting chosen as choose_setting() chooses it. */
void read_ab(struct config *c, const struct cpu_features *f);

/* describe.c: one line per function on stderr. */
void config_print_choices(const struct config *c);

/* parse_count.c: a whole number in [min, max] from decimal digits, or NULL and the problem. */
const char *parse_count(const char *text, unsigned long long min, unsigned long long max,
                        unsigned long long *out);

#endif
