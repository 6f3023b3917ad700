/* What the files of the configuration share; outside them, dispatch/config.h.
 *
 *   config.c             reading it all once (config_get), the variables
 *                        that name variants, unknown variables
 *   policy.c             the policies and the default one
 *   config_thresholds.c  the thresholds and the calibration file
 *   config_recording.c   the recording settings
 *   config_parse.c       parsing values, the message for a bad one
 *   describe.c           the descriptions of the choice */
#ifndef MEMSHIM_CONFIG_INTERNAL_H
#define MEMSHIM_CONFIG_INTERNAL_H

#include "dispatch/calibration.h"
#include "dispatch/config.h"

/* A policy picks bands from the CPU's features; MEMSHIM_IMPL and the
 * per-function variables may name one instead of a variant or bands. */
struct policy {
	const char *name;
	void (*pick)(const struct cpu_features *f, enum base_function fn, struct band_list *out, const char **why);
};

/* policy.c */
const struct policy *policy_named(const char *name); /* NULL if none */
const struct policy *policy_default(void);
/* From now on the default policy takes these choices where they name bands. */
void policy_follow_calibration(const struct calibration_choices *choices);

/* config_parse.c */
/* A whole number in [min, max] from decimal digits, or NULL and the problem. */
const char *parse_count(const char *text, unsigned long long min, unsigned long long max,
                        unsigned long long *out);

/* config_thresholds.c: the calibration file (before the choice of variants:
 * the default policy follows it), then the threshold variables. */
void config_read_calibration(struct config *c);
void config_read_thresholds(struct config *c);

/* config_recording.c */
void config_read_recording(struct config *c);

/* describe.c: one line per function on stderr. */
void config_print_choices(const struct config *c);

#endif
