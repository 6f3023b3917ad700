/* The configuration: which variant each base function uses and why, and
 * the settings read from MEMSHIM_* environment variables.
 *
 * Read once per process, from the environment the process started with
 * (dispatch/early_env.h), the first time any resolver or the library's
 * constructor asks; every bad value is reported then, once, on stderr. */
#ifndef MEMSHIM_CONFIG_H
#define MEMSHIM_CONFIG_H

#include "dispatch/bands.h"
#include "dispatch/byte_count.h"
#include "dispatch/calibration.h"
#include "dispatch/message.h"
#include "dispatch/read_thresholds.h"
#include "dispatch/variants.h"
#include "shim/thresholds.h"

#include <stdbool.h>
#include <stddef.h>

struct function_choice {
	struct band_list bands;      /* one band: a single variant */
	char text[BAND_TEXT_MAX];    /* the bands' text form ("glibc:256,avx2") */
	const char *why; /* "CPU has FSRM", or the variable that chose (dispatch/settings.h) */
	/* When a variable named a preset (MEMSHIM_IMPL=kernel): the variable and
	 * the preset, and `why` is the preset's reason.  NULL otherwise. */
	const char *variable, *preset;
	/* Where the choice came from (variant_resolve): the environment (the
	 * variable of `setting`, S_IMPL or fn's own), the calibration file,
	 * the CPU row, or built-in. */
	enum setting_origin origin;
	enum setting_id setting;
};

#define HIST_PATH_MAX 1024

/* MEMSHIM_PROFILE=1 or on: the rate asked of the timer.  Kernels with a
 * 250 Hz tick deliver 250 signals a second and count the rest as overruns. */
#define PROFILE_DEFAULT_HZ 1000
#define PROFILE_MAX_HZ 100000

/* MEMSHIM_TIMING=on: one call in this many is timed, which adds about half
 * of what recording adds a call (D35). */
#define TIMING_DEFAULT_EVERY 64
#define TIMING_MAX_EVERY 1073741824

/* MEMSHIM_SEQUENCES=on: windows of this many consecutive calls. */
#define SEQUENCES_DEFAULT_LENGTH 64
#define SEQUENCES_MAX_LENGTH 1024

/* MEMSHIM_AB_BLOCK: the calls of a thread in one block of an A/B run. */
#define AB_DEFAULT_BLOCK 1024
#define AB_MAX_BLOCK 16777216

struct config {
	struct function_choice choice[FN_COUNT];
	bool verbose;
	bool direct_binding; /* MEMSHIM_BIND: one-band functions bound without the stub */
	bool secure; /* AT_SECURE: variables naming files were ignored */
	/* Recording (MEMSHIM_DUMP...): on when hist_path is not empty. */
	char hist_path[HIST_PATH_MAX]; /* with %p and %e not yet expanded */
	unsigned hist_interval;        /* seconds between dumps; 0: none */
	int hist_signal;               /* the signal that asks for a dump; 0: none */
	bool hist_end_signals;         /* dump before SIGTERM, SIGINT, SIGHUP end the process */
	unsigned callsite_every;       /* sample one call in N for call sites; 0: off */
	unsigned stack_depth;          /* MEMSHIM_STACK_DEPTH: frames kept per call site */
	unsigned profile_hz;           /* MEMSHIM_PROFILE: samples per CPU second; 0: off */
	unsigned timing_every;         /* MEMSHIM_TIMING: time one call in N with the TSC; 0: off */
	unsigned sequence_length;      /* MEMSHIM_SEQUENCES: windows of N consecutive calls; 0: off */
	int problems_fd;               /* MEMSHIM_PROBLEMS_FD: dump problems told there too; -1: not */
	/* MEMSHIM_AB=A/B, with recording: each thread's calls served from
	 * setting A or B in alternating blocks of ab_block calls, every call
	 * timed (preload/ab.h); ab_bands[arm][fn] is each setting's choice. */
	bool ab;
	unsigned ab_block;
	char ab_setting[2][BAND_TEXT_MAX];
	struct band_list ab_bands[2][FN_COUNT];
	struct thresholds thresholds; /* as resolved at start-up; the variants read memshim_thresholds */
	enum setting_origin origin[T_ALL];
	char calibration_path[HIST_PATH_MAX]; /* the calibration file applied; "" if none */
	struct calibration_choices calibrated; /* its bands for the default */
};

/* The process's configuration; the first call reads the environment and reports problems. */
const struct config *config_get(void);

/* Appends "memcpy -> erms (rep movsb from 2048 B) [MEMSHIM_IMPL]" for one function. */
void config_describe(const struct config *c, enum base_function fn, struct line *l);

/* Appends where fn's choice came from: "environment (MEMSHIM_MEMCPY)",
 * "calibration file PATH", "CPU row amd-zen5.row" or "built-in". */
void config_describe_source(const struct config *c, enum base_function fn, struct line *l);

/* Appends the entry points that follow fn: "mempcpy, __memcpy_chk, ..."
 * (shim/memshim.h's list). */
void config_describe_followers(enum base_function fn, struct line *l);

/* Appends each band of b and the thresholds of t its variant reads for fn. */
void config_describe_bands(const struct band_list *b, enum base_function fn, const struct thresholds *t,
                           struct line *l);

/* Appends "thresholds: erms 2048 B [built-in], ..., nt 25165824 B
 * [calibration file PATH]": every threshold and where it came from. */
void config_describe_thresholds(const struct config *c, struct line *l);


/* What fn gets when no variable names a variant, and why (the default,
 * on this CPU and its calibration file). */
void config_default_bands(enum base_function fn, struct band_list *out, const char **why);

/* The bands fn gets where MEMSHIM_IMPL is `value` (a variant, bands or a
 * preset), as the library chooses them; NULL, or the problem in words that
 * follow the value. */
const char *config_setting_bands(const char *value, enum base_function fn, struct band_list *out);

/* dispatch/names.c: whether `name` is something MEMSHIM_IMPL may name: a
 * variant or a preset ("kernel", "default"; "auto", the old name of default). */
bool config_name_known(const char *name);

/* The variant or preset `name` misspells, for a message: the one name
 * within an edit of it, case ignored ("AVX2", "avx22": "avx2"); NULL where
 * none is, or several are. */
const char *config_name_meant(const char *name);

/* The name of preset number i (0, 1, ...), the bands it picks on this CPU
 * and why; NULL past the last one. */
const char *config_preset(unsigned i, enum base_function fn, struct band_list *picks, const char **why);

#endif
