/* memshim ab's own parts: its settings and runs (struct ab), running a
 * round (run.c), the figures of the runs (figures.c), the table (table.c),
 * the verdicts and --runs auto's stop rule (verdict.c), and each run's
 * dumps (profile.c). */
#ifndef MEMSHIM_AB_H
#define MEMSHIM_AB_H

#include "tools/ab/profile.h"
#include "tools/measure/clock.h"
#include "tools/util/paired_stats.h"

#include <stdbool.h>
#include <stddef.h>

#define MAX_SETTINGS 16
#define MAX_RUNS 1000
#define MAX_VARS 16
#define DEFAULT_BUDGET_S 60
/* --runs auto looks and stops by paired_auto_next_look and paired_auto_level
 * (tools/util/paired_stats.h), whose error is reckoned up to its last look. */
_Static_assert(MAX_RUNS <= PAIRED_AUTO_LAST, "--runs auto may not look past the stop rule's last look");
#define PROFILE_HZ_MIN 2 /* what the library takes in MEMSHIM_PROFILE (1 means "on") */
/* A setting whose shortest run is shorter than this is not timed.  The
 * clocks are fine enough (ns and us); the limit is what happens around a
 * run: fork, exec and dynamic loading take about a millisecond and vary by
 * a good part of it, and on a shared machine one preemption costs a
 * scheduler slice (3 ms in CFS, one 4 ms tick at HZ=250).  At 20 ms such a
 * hiccup is at most ~20% of a run, which the paired interval absorbs; at
 * 2 ms it is the whole run. */
#define SHORTEST_RUN_S 0.020
/* Labels up to this long show as they are; longer ones get a short name
 * ("env1", "tunables1") in the tables, and the key below says what it is. */
#define LABEL_WIDTH 20

enum setting_kind { KIND_IMPL, KIND_ENV, KIND_TUNABLES };

struct setting {
	enum setting_kind kind;
	char label[96];
	char meaning[600]; /* what the setting runs, for the key */
	bool preload;
	char *vars[MAX_VARS + 1]; /* "K=V" to set, NULL-terminated */
	char text[512];           /* the storage vars point into */
	unsigned failures;
	int last_status;
	struct ab_notes notes; /* why a run had no in-function time */
};

/* M_FN: CPU ns inside memcpy, memmove and memset per call, from the profile;
 * M_TIMED: ns per call of the timed calls (0: not known for that run). */
enum measure { M_WALL, M_CPU, M_CYCLES, M_INSTRUCTIONS, M_FN, M_TIMED, M_COUNT };

struct ab {
	struct setting settings[MAX_SETTINGS];
	unsigned count, runs; /* runs: rounds done (the target, before running) */
	unsigned capacity;    /* rounds the values have room for */
	bool auto_runs, show_output;
	double level; /* the intervals' confidence */
	double budget_s;
	const char *profile; /* MEMSHIM_PROFILE's value, or NULL */
	bool in_process;     /* --in-process: both settings in one run (in_process.c) */
	bool runs_given;     /* --runs N was given (--in-process: one run without it) */
	char block[16];      /* --block: MEMSHIM_AB_BLOCK's value; "": the library's */
	const char *csv;     /* --in-process --csv: the file of its table, or NULL */
	const char *timing;  /* MEMSHIM_TIMING's value, or NULL */
	char dump_dir[4096];  /* where the runs' dumps go, with --profile or --timing */
	char **command;
	char *preload, *original_preload; /* LD_PRELOAD with and without the library */
	double *values;                   /* [(setting * M_COUNT + measure) * capacity + run] */
	double *class_values;             /* M_TIMED by size class: [(setting * AB_CLASSES + class) * capacity + run] */
	double class_timed_calls[MAX_SETTINGS][AB_CLASSES]; /* the timed calls those rest on, over the runs */
	bool counters;                    /* cycles and instructions were counted */
	char counter_note[160];
	double recording_ns;              /* --profile: the sum over the runs of the recording's ns per call */
	unsigned recording_runs;          /* and over how many runs */
};

struct summary {
	double median, min, max;
};

static inline double *series(const struct ab *a, unsigned setting, enum measure m)
{
	return a->values + ((size_t)setting * M_COUNT + m) * a->capacity;
}

static inline double *class_series(const struct ab *a, unsigned setting, unsigned c)
{
	return a->class_values + ((size_t)setting * AB_CLASSES + c) * a->capacity;
}

static inline double seconds_now(void) { return 1e-9 * (double)monotonic_ns(); }

/* run.c: one run of every setting, in order, as round r; 1 (after a
 * message) if a run cannot be started. */
int ab_run_round(struct ab *a, unsigned r);

/* One run of the command: its wait status, wall and CPU (user+system)
 * seconds, and with counters its cycles and instructions (0 where none
 * counted; a->counters and a->counter_note say so). */
struct ab_run {
	int status;
	double wall, cpu, cycles, instructions;
};
/* Sets the environment of the child that runs the command, from `what`. */
typedef void ab_environment(const struct ab *a, const void *what);
/* run.c, the one child runner of both kinds of ab: runs the command once,
 * its environment from set_environment, its output to /dev/null unless
 * --show-output, timed from when it may start to its end; false (errno
 * set) if it could not start. */
bool ab_run_command(struct ab *a, ab_environment *set_environment, const void *what, bool counted,
                    struct ab_run *r);

/* in_process.c: --in-process, one run with both settings inside it; the
 * exit status (2: settings it cannot compare, 1: no result or the command failed). */
int ab_in_process(struct ab *a);

/* figures.c: setting's median, min and max of measure m. */
struct summary ab_summarise(const struct ab *a, unsigned setting, enum measure m);
/* Whether setting's shortest run is too short to time (SHORTEST_RUN_S). */
bool ab_too_short(const struct ab *a, unsigned setting, enum measure m);
/* Whether m is a time inside the functions (M_FN, M_TIMED). */
bool ab_inside(enum measure m);
/* Whether values holds a figure for every run. */
bool ab_every_run(const struct ab *a, const double *values);
/* Whether setting has the in-function time m in every run. */
bool ab_has_fn_time(const struct ab *a, unsigned setting, enum measure m);
/* The setting the in-function time m is set against; -1 if none. */
int ab_fn_baseline(const struct ab *a, enum measure m);
/* Whether setting i can be set against base in measure m. */
bool ab_comparable(const struct ab *a, unsigned i, unsigned base, enum measure m);
/* Setting i against base in m, run by run paired by round; false if it cannot be. */
bool ab_compare(const struct ab *a, unsigned i, unsigned base, enum measure m, struct paired_ratio *r);

/* table.c: the lines above the table, and the table. */
void ab_print_header(const struct ab *a);
void ab_print_table(const struct ab *a);

/* verdict.c: a verdict per setting; the failed runs (the exit status). */
void ab_print_verdicts(const struct ab *a);
int ab_report_failures(const struct ab *a);
/* --runs auto: NULL while more rounds are worth running, else why not. */
const char *ab_stop_reason(const struct ab *a, double elapsed, unsigned next);

/* --runs auto: the rounds of its last look that the budget holds at the
 * pace so far (ab_stop_reason stops there at the latest); a->runs if none. */
unsigned ab_last_look(const struct ab *a, double elapsed);

/* --runs auto, from the rounds so far: the smallest difference (a
 * fraction) that `rounds` rounds would resolve for every setting, each on
 * its deciding measure (named in *measure); 0 where none has a ratio. */
double ab_resolvable(const struct ab *a, unsigned rounds, const char **measure);

#endif
