/* memshim ab: runs a command alternately under each setting (A B C A B C
 * ...), so that a slow spell of this shared machine hits every setting
 * alike, and reports medians and spreads of wall time, CPU time and, where
 * the kernel lets us count them, cycles and instructions; then a verdict
 * per setting from the runs paired by round (tools/paired_stats.h), and
 * with --profile the CPU time inside the functions per call, with --timing
 * the time per call of the timed calls (overall and by size class), from
 * each run's dumps (tools/ab_profile.h). */
#include "config.h"

#include "tools/ab.h"
#include "tools/bench.h"

#include "dispatch/config.h"
#include "tools/ab_profile.h"
#include "tools/cli.h"
#include "tools/cli_options.h"
#include "tools/cli_reach.h"
#include "tools/cost_model.h"
#include "tools/glibc_tunables.h"
#include "tools/paired_stats.h"
#include "tools/report_parts.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char ab_help[] =
	"usage: memshim ab [--runs N|auto] [--budget SECONDS] [--profile[=HZ]] [--timing[=N]] [--impl A,B,...]\n"
	"                  [--env 'K=V ...']... [--tunables T=V:...]... [--show-output] -- COMMAND [ARGS...]\n"
	"Runs COMMAND N times under each setting, interleaved (A B C A B C ...), and\n"
	"prints per setting the median and min..max of wall time, user+system time\n"
	"and, where perf events are allowed, user-space cycles and instructions.  Every\n"
	"ratio, in the table and in the verdicts, is one statistic: each run against\n"
	"the same round's run of the first setting, the geometric mean of those ratios;\n"
	"the verdicts give its 95% interval (stricter with --runs auto) and say\n"
	"\"faster\", \"slower\", or how many runs would resolve the difference.  A label\n"
	"too long for the table is a short name (env1, tunables1) that a key names.\n"
	"  --runs N        runs per setting (default 5); auto: run rounds until every\n"
	"                  verdict is resolved (CPU time; the in-function time with\n"
	"                  --timing, else --profile) or the budget runs out\n"
	"  --budget S      the time --runs auto may take, in seconds (default 60)\n"
	"  --profile[=HZ]  run the library's settings with MEMSHIM_PROFILE (HZ samples\n"
	"                  per CPU second; default: the library's) and compare the CPU\n"
	"                  time inside memcpy, memmove and memset per call\n"
	"  --timing[=N]    run the library's settings with MEMSHIM_TIMING (one call in N\n"
	"                  timed with the time-stamp counter; default on: N = 64) and\n"
	"                  compare the time per call inside the three functions, overall\n"
	"                  and by size class\n"
	"  --impl LIST     one setting per item: a variant or policy (memshim run --impl),\n"
	"                  or `none`: without the library\n"
	"  --env 'K=V ...' one setting: the library with these variables (repeatable)\n"
	"  --tunables T    one setting: without the library, with GLIBC_TUNABLES=T\n"
	"                  (glibc.NAME=VALUE items joined by `:`; repeatable)\n"
	"  --show-output   keep the command's standard output (default: /dev/null)\n"
	"Settings run in the order given; without any: --impl none,kernel.  A run that\n"
	"exits non-zero is reported, and the exit status is then 1.  A COMMAND that is\n"
	"not found ends ab with status 127 before any run, one that cannot be run 126.\n";

#define MAX_SETTINGS 16
#define MAX_RUNS 1000
#define MAX_VARS 16
#define DEFAULT_BUDGET_S 60
/* --runs auto looks and stops by paired_auto_next_look and paired_auto_level
 * (tools/paired_stats.h), whose error is reckoned up to its last look. */
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
	const char *timing;  /* MEMSHIM_TIMING's value, or NULL */
	char dump_dir[4096];  /* where the runs' dumps go, with --profile or --timing */
	char **command;
	char *preload, *original_preload; /* LD_PRELOAD with and without the library */
	double *values;                   /* [(setting * M_COUNT + measure) * capacity + run] */
	double *class_values;             /* M_TIMED by size class: [(setting * AB_CLASSES + class) * capacity + run] */
	bool counters;                    /* cycles and instructions were counted */
	char counter_note[160];
};

static int usage_error(const char *format, ...)
{
	va_list args;
	va_start(args, format);
	fputs("memshim ab: ", stderr);
	vfprintf(stderr, format, args);
	fputs(" (see memshim ab --help)\n", stderr);
	va_end(args);
	return 2;
}

/* ---- arguments ---- */

static struct setting *new_setting(struct ab *a)
{
	if (a->count == MAX_SETTINGS)
		return NULL;
	struct setting *s = &a->settings[a->count++];
	memset(s, 0, sizeof *s);
	s->preload = true;
	return s;
}

static int add_impls(struct ab *a, const char *list)
{
	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");
		struct setting *s = new_setting(a);
		if (!s)
			return usage_error("more than %d settings", MAX_SETTINGS);
		size_t kept = len < sizeof s->label - 1 ? len : sizeof s->label - 1;
		memcpy(s->label, p, kept);
		s->label[kept] = '\0';
		if (strcmp(s->label, "none") == 0) {
			s->preload = false;
			snprintf(s->meaning, sizeof s->meaning, "without the library");
		} else if (!config_name_known(s->label)) {
			const char *meant = config_name_in_other_case(s->label);
			return usage_error("--impl: \"%s\" is not a variant, a policy or none%s%s%s", s->label,
			                   meant ? " (did you mean " : "", meant ? meant : "", meant ? "?)" : "");
		} else {
			memcpy(s->text, "MEMSHIM_IMPL=", 13); /* label and text are both in *s: no snprintf from one to the other */
			memcpy(s->text + 13, s->label, kept + 1);
			s->vars[0] = s->text;
			snprintf(s->meaning, sizeof s->meaning, "the library with MEMSHIM_IMPL=%.*s", (int)kept, p);
		}
		p += len;
		if (!*p)
			return 0;
	}
}

static int add_env(struct ab *a, const char *text)
{
	struct setting *s = new_setting(a);
	if (!s)
		return usage_error("more than %d settings", MAX_SETTINGS);
	if (strlen(text) >= sizeof s->text)
		return usage_error("--env \"%.40s...\" is too long", text);
	s->kind = KIND_ENV;
	snprintf(s->label, sizeof s->label, "%.*s", (int)sizeof s->label - 1, text);
	snprintf(s->text, sizeof s->text, "%s", text);
	snprintf(s->meaning, sizeof s->meaning, "the library with %s", text);
	unsigned n = 0;
	for (char *word = strtok(s->text, " "); word; word = strtok(NULL, " ")) {
		if (!strchr(word, '=') || word[0] == '=' || n == MAX_VARS)
			return usage_error("--env \"%s\": expected up to %d NAME=VALUE words", text, MAX_VARS);
		s->vars[n++] = word;
	}
	return n ? 0 : usage_error("--env needs NAME=VALUE words");
}

/* One setting without the library: GLIBC_TUNABLES=text. */
static int add_tunables(struct ab *a, const char *text)
{
	struct setting *s = new_setting(a);
	char why[300];
	if (!s)
		return usage_error("more than %d settings", MAX_SETTINGS);
	if (strlen(text) + sizeof "GLIBC_TUNABLES=" > sizeof s->text)
		return usage_error("--tunables \"%.40s...\" is too long", text);
	if (!glibc_tunables_check(text, why, sizeof why))
		return usage_error("--tunables %s", why);
	s->preload = false;
	s->kind = KIND_TUNABLES;
	snprintf(s->label, sizeof s->label, "tunables:%.*s", (int)sizeof s->label - 10, text);
	snprintf(s->text, sizeof s->text, "GLIBC_TUNABLES=%s", text);
	snprintf(s->meaning, sizeof s->meaning, "without the library, with GLIBC_TUNABLES=%s", text);
	s->vars[0] = s->text;
	return 0;
}

static int parse_runs(const char *value, struct ab *a)
{
	if (strcmp(value, "auto") == 0) {
		a->auto_runs = true;
		return 0;
	}
	if (!cli_whole_number(value, 1, MAX_RUNS, &a->runs))
		return usage_error("--runs \"%s\" is not auto or a number from 1 to %d", value, MAX_RUNS);
	return 0;
}

static int parse_budget(const char *value, struct ab *a)
{
	char *end;
	errno = 0;
	double s = strtod(value, &end);
	if (!*value || *end || errno || !(s > 0) || s > 86400)
		return usage_error("--budget \"%s\" is not a number of seconds from 0 to 86400", value);
	a->budget_s = s;
	return 0;
}

/* --profile or --profile=HZ */
static int parse_profile(const char *value, struct ab *a)
{
	if (!value) {
		a->profile = "on";
		return 0;
	}
	char *end;
	errno = 0;
	long hz = strtol(value, &end, 10);
	if (!*value || *end || errno || hz < PROFILE_HZ_MIN || hz > PROFILE_MAX_HZ)
		return usage_error("--profile=\"%s\": expected samples per second from %d to %d", value,
				   PROFILE_HZ_MIN, PROFILE_MAX_HZ);
	a->profile = value;
	return 0;
}

/* --timing or --timing=N */
static int parse_timing(const char *value, struct ab *a)
{
	unsigned every;
	if (value && !cli_whole_number(value, 1, TIMING_MAX_EVERY, &every))
		return usage_error("--timing=\"%s\": expected one call in N timed, N from 1 to %d", value, TIMING_MAX_EVERY);
	a->timing = value ? value : "on";
	return 0;
}

enum { AB_SHOW_OUTPUT = 1, AB_PROFILE, AB_TIMING, AB_RUNS, AB_BUDGET, AB_IMPL, AB_ENV, AB_TUNABLES };

static const struct option ab_options[] = {
	{ "runs", required_argument, NULL, AB_RUNS },
	{ "budget", required_argument, NULL, AB_BUDGET },
	{ "impl", required_argument, NULL, AB_IMPL },
	{ "env", required_argument, NULL, AB_ENV },
	{ "tunables", required_argument, NULL, AB_TUNABLES },
	{ "profile", optional_argument, NULL, AB_PROFILE },
	{ "timing", optional_argument, NULL, AB_TIMING },
	{ "show-output", no_argument, NULL, AB_SHOW_OUTPUT },
	{ 0 },
};

static int apply_option(void *context, int id, const char *name, const char *value)
{
	struct ab *a = context;
	(void)name;
	switch (id) {
	case AB_SHOW_OUTPUT:
		a->show_output = true;
		return 0;
	case AB_PROFILE:
		return parse_profile(value, a);
	case AB_TIMING:
		return parse_timing(value, a);
	case AB_RUNS:
		return parse_runs(value, a);
	case AB_BUDGET:
		return parse_budget(value, a);
	case AB_IMPL:
		return add_impls(a, value);
	case AB_TUNABLES:
		return add_tunables(a, value);
	default: /* AB_ENV */
		return add_env(a, value);
	}
}

/* Labels longer than LABEL_WIDTH become "env1", "tunables1", ... by kind
 * and order, so that no table or verdict ever cuts one. */
static void short_labels(struct ab *a)
{
	static const char *const prefix[] = { [KIND_IMPL] = "impl", [KIND_ENV] = "env", [KIND_TUNABLES] = "tunables" };
	unsigned numbers[3] = { 0, 0, 0 };
	for (unsigned i = 0; i < a->count; i++) {
		struct setting *s = &a->settings[i];
		unsigned number = ++numbers[s->kind];
		if (strlen(s->label) > LABEL_WIDTH)
			snprintf(s->label, sizeof s->label, "%s%u", prefix[s->kind], number);
	}
}

static int parse_options(int argc, char **argv, struct ab *a)
{
	a->runs = 5;
	a->budget_s = DEFAULT_BUDGET_S;
	const struct cli_syntax syntax = { "ab", ab_options, true };
	int first, rc = cli_parse_options(argc, argv, &syntax, apply_option, a, &first);
	if (rc)
		return rc;
	a->command = argv + first;
	a->capacity = a->auto_runs ? MAX_RUNS : a->runs;
	rc = a->count ? 0 : add_impls(a, "none,kernel");
	short_labels(a);
	return rc;
}

/* ---- running ---- */

static double seconds_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A user-space counter on pid and every process it starts, counting from its exec. */
static int open_counter(pid_t pid, unsigned long long config)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_HARDWARE, .size = sizeof attr, .config = config,
					.disabled = 1, .inherit = 1, .enable_on_exec = 1, .exclude_kernel = 1,
					.exclude_hv = 1 };
	return (int)syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static double read_counter(int fd)
{
	unsigned long long v = 0;
	return fd >= 0 && read(fd, &v, sizeof v) == (ssize_t)sizeof v ? (double)v : 0;
}

/* The setting's variables, then (with --profile or --timing, for the
 * library's settings) theirs, which win: ab reads those dumps back. */
static void set_environment(const struct ab *a, const struct setting *s)
{
	const char *preload = s->preload ? a->preload : a->original_preload;
	if (preload)
		setenv("LD_PRELOAD", preload, 1);
	else
		unsetenv("LD_PRELOAD");
	for (char *const *v = s->vars; *v; v++)
		putenv(*v);
	if ((a->profile || a->timing) && s->preload) {
		char path[4200];
		snprintf(path, sizeof path, "%s/h.%%p", a->dump_dir);
		setenv("MEMSHIM_HIST", path, 1);
		if (a->profile)
			setenv("MEMSHIM_PROFILE", a->profile, 1);
		if (a->timing)
			setenv("MEMSHIM_TIMING", a->timing, 1);
	}
}

/* The child: waits for the parent's counters, then runs the command. */
static void child(const struct ab *a, const struct setting *s, int go)
{
	char byte;
	set_environment(a, s);
	if (!a->show_output) {
		int devnull = open("/dev/null", O_WRONLY);
		dup2(devnull, 1);
	}
	if (read(go, &byte, 1) != 1)
		_exit(127);
	execvp(a->command[0], a->command);
	fprintf(stderr, "memshim ab: cannot run %s: %s\n", a->command[0], strerror(errno));
	_exit(127);
}

/* One run of setting s; its measures in out[M_COUNT], M_TIMED by size class
 * in by_class; false if it could not start. */
static bool run_once(struct ab *a, struct setting *s, double *out, double by_class[AB_CLASSES])
{
	int go[2];
	if (pipe2(go, O_CLOEXEC) != 0)
		return false;
	pid_t pid = fork();
	if (pid == 0)
		child(a, s, go[0]);
	close(go[0]);
	if (pid < 0) {
		close(go[1]);
		return false;
	}
	int cycles = open_counter(pid, PERF_COUNT_HW_CPU_CYCLES);
	int instructions = open_counter(pid, PERF_COUNT_HW_INSTRUCTIONS);
	if (cycles < 0 && !a->counter_note[0])
		snprintf(a->counter_note, sizeof a->counter_note, "not counted: %s", bench_no_counter_reason(errno));
	a->counters = cycles >= 0 && instructions >= 0;
	int status;
	struct rusage usage;
	double start = seconds_now();
	ssize_t written = write(go[1], "g", 1);
	close(go[1]);
	while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR)
		;
	out[M_WALL] = seconds_now() - start;
	out[M_CPU] = (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
		     1e-6 * (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
	out[M_CYCLES] = read_counter(cycles);
	out[M_INSTRUCTIONS] = read_counter(instructions);
	struct ab_fn_time inside = { 0 };
	if ((a->profile || a->timing) && s->preload)
		ab_profile_take(a->dump_dir, &inside, &s->notes);
	out[M_FN] = inside.profile;
	out[M_TIMED] = inside.timed;
	memcpy(by_class, inside.timed_class, sizeof inside.timed_class);
	if (cycles >= 0)
		close(cycles);
	if (instructions >= 0)
		close(instructions);
	if (written != 1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		s->failures++;
		s->last_status = status;
	}
	return true;
}

/* ---- the figures ---- */

static double *series(const struct ab *a, unsigned setting, enum measure m)
{
	return a->values + ((size_t)setting * M_COUNT + m) * a->capacity;
}

static double *class_series(const struct ab *a, unsigned setting, unsigned c)
{
	return a->class_values + ((size_t)setting * AB_CLASSES + c) * a->capacity;
}

struct summary {
	double median, min, max;
};

static struct summary summarise(const struct ab *a, unsigned setting, enum measure m)
{
	double v[MAX_RUNS];
	memcpy(v, series(a, setting, m), a->runs * sizeof v[0]);
	double median = cm_quantile(v, a->runs, 0.5); /* sorts v */
	return (struct summary){ median, v[0], v[a->runs - 1] };
}

/* Judged on the shortest run: a loaded machine only ever adds time, so a
 * median can pass for long what is a millisecond of work and waits. */
static bool too_short(const struct ab *a, unsigned setting, enum measure m)
{
	return (m == M_WALL || m == M_CPU) && summarise(a, setting, m).min < SHORTEST_RUN_S;
}

/* An in-function measure: read from the runs' dumps. */
static bool inside(enum measure m)
{
	return m == M_FN || m == M_TIMED;
}

/* Every run of the setting has a value in values[0..runs). */
static bool every_run(const struct ab *a, const double *values)
{
	for (unsigned r = 0; r < a->runs; r++)
		if (!(values[r] > 0))
			return false;
	return true;
}

/* Every run of the setting has its in-function time m (asked for). */
static bool has_fn_time(const struct ab *a, unsigned setting, enum measure m)
{
	return (m == M_FN ? a->profile : a->timing) && every_run(a, series(a, setting, m));
}

/* The setting the in-function times m are compared with: the first that has them. */
static int fn_baseline(const struct ab *a, enum measure m)
{
	for (unsigned i = 0; i < a->count; i++)
		if (has_fn_time(a, i, m))
			return (int)i;
	return -1;
}

/* Whether m of setting i can be set against base: both timed. */
static bool comparable(const struct ab *a, unsigned i, unsigned base, enum measure m)
{
	if (inside(m))
		return has_fn_time(a, i, m) && has_fn_time(a, base, m);
	return !too_short(a, i, M_WALL) && !too_short(a, base, M_WALL) && !too_short(a, i, m) && !too_short(a, base, m);
}

static bool compare(const struct ab *a, unsigned i, unsigned base, enum measure m, struct paired_ratio *r)
{
	return comparable(a, i, base, m) && paired_compare(series(a, i, m), series(a, base, m), a->runs, a->level, r);
}

/* ---- the report ---- */

/* The geometric mean over the rounds of setting i's runs over base's, the
 * statistic of the verdicts too; false if a value is not positive. */
static bool geometric_ratio(const struct ab *a, unsigned i, unsigned base, enum measure m, double *out)
{
	const double *x = series(a, i, m), *b = series(a, base, m);
	double logs = 0;
	for (unsigned r = 0; r < a->runs; r++) {
		if (!(x[r] > 0 && b[r] > 0))
			return false;
		logs += log(x[r] / b[r]);
	}
	*out = exp(logs / a->runs);
	return a->runs > 0;
}

static void print_cell(const struct ab *a, unsigned setting, unsigned base, enum measure m, const char *format)
{
	struct summary s = summarise(a, setting, m);
	char text[96];
	double ratio;
	snprintf(text, sizeof text, format, s.median, s.min, s.max);
	if (comparable(a, setting, base, m) && geometric_ratio(a, setting, base, m, &ratio))
		printf(" %-27s %6.3f", text, ratio);
	else
		printf(" %-27s %6s", inside(m) && !has_fn_time(a, setting, m) ? "-" : text, "-");
}

/* The baseline of in-function measure m for the table: the first setting that has it. */
static unsigned table_base(const struct ab *a, enum measure m)
{
	int base = fn_baseline(a, m);
	return base < 0 ? 0 : (unsigned)base;
}

/* The table's label column: the longest label, at least "setting". */
static int label_width(const struct ab *a)
{
	size_t width = strlen("setting");
	for (unsigned i = 0; i < a->count; i++)
		width = strlen(a->settings[i].label) > width ? strlen(a->settings[i].label) : width;
	return (int)width;
}

/* What each label stands for, below the table. */
static void print_key(const struct ab *a)
{
	printf("settings:\n");
	for (unsigned i = 0; i < a->count; i++)
		printf("  %-*s  %s\n", label_width(a), a->settings[i].label, a->settings[i].meaning);
}

static void print_table(const struct ab *a)
{
	int width = label_width(a);
	printf("%-*s %-27s %6s %-27s %6s", width, "setting", "wall s", "ratio", "user+sys s", "ratio");
	if (a->counters)
		printf(" %-27s %6s %-27s %6s", "cycles (1e6)", "ratio", "instructions (1e6)", "ratio");
	if (a->profile)
		printf(" %-27s %6s", "in-function ns per call", "ratio");
	if (a->timing)
		printf(" %-27s %6s", "timed ns per call", "ratio");
	printf("\n");
	for (unsigned i = 0; i < a->count; i++) {
		printf("%-*s", width, a->settings[i].label);
		print_cell(a, i, 0, M_WALL, "%.3f (%.3f..%.3f)");
		print_cell(a, i, 0, M_CPU, "%.3f (%.3f..%.3f)");
		if (a->counters) {
			print_cell(a, i, 0, M_CYCLES, "%.0f (%.0f..%.0f)");
			print_cell(a, i, 0, M_INSTRUCTIONS, "%.0f (%.0f..%.0f)");
		}
		if (a->profile)
			print_cell(a, i, table_base(a, M_FN), M_FN, "%.2f (%.2f..%.2f)");
		if (a->timing)
			print_cell(a, i, table_base(a, M_TIMED), M_TIMED, "%.2f (%.2f..%.2f)");
		printf("\n");
	}
	print_key(a);
}

static void print_header(const struct ab *a)
{
	printf("memshim ab: %u runs of each of %u settings, interleaved\n", a->runs, a->count);
	printf("  wall: clock_gettime(CLOCK_MONOTONIC) from the start signal to wait4; cpu: user+system\n"
	       "  from wait4's rusage (the command and its children); cycles, instructions: %s\n",
	       a->counters ? "perf_event_open, user space, inherited by the command's children" : a->counter_note);
	if (a->profile)
		printf("  in-function: CPU ns inside memcpy, memmove and memset over their calls, from the\n"
		       "  runs' dumps (MEMSHIM_PROFILE=%s MEMSHIM_HIST): the copies alone, memshim's recording\n"
		       "  left out; the library's settings record, so their wall and cpu include about a ns\n"
		       "  per call that none and tunables settings don't\n",
		       a->profile);
	if (a->timing)
		printf("  timed: ns per call inside the three functions from the calls the library timed with the\n"
		       "  time-stamp counter (MEMSHIM_TIMING=%s), each size class's mean weighted by its calls;\n"
		       "  a timed call runs alone, so small copies take longer timed than in a stream of them\n",
		       a->timing);
	int fn_base = fn_baseline(a, a->timing ? M_TIMED : M_FN);
	printf("  each cell: median (min..max) over the runs; ratio, here and in the verdicts: each run\n"
	       "  over the same round's run of %s", a->settings[0].label);
	if ((a->profile || a->timing) && fn_base > 0)
		printf(" (in-function: of %s, the first setting run under\n  the library)", a->settings[fn_base].label);
	printf(", the geometric mean of those ratios\n");
}

static void print_verdict(const struct ab *a, unsigned i, unsigned base, enum measure m, const char *what)
{
	static const char *const unit[M_COUNT] = { [M_WALL] = "wall", [M_CPU] = "cpu", [M_FN] = "in-function",
						   [M_TIMED] = "in-function (timed)" };
	struct paired_ratio r;
	char text[200];
	if (!inside(m) && too_short(a, i, M_WALL)) {
		if (m == M_WALL)
			printf("  %s: too short to time: %.1f ms per run; give it more work\n", a->settings[i].label,
			       1e3 * summarise(a, i, m).min);
	} else if (m == M_CPU && too_short(a, i, m))
		printf("  %s: cpu: too little CPU time to time: %.1f ms per run\n", a->settings[i].label,
		       1e3 * summarise(a, i, m).min);
	else if (i == base)
		return;
	else if (!compare(a, i, base, m, &r))
		printf("  %s: %s: no ratio: %s\n", a->settings[i].label, unit[m],
		       a->runs < 2 ? "one run gives no interval" : "the first setting's runs are too short to time");
	else {
		struct paired_verdict v = paired_judge(&r);
		paired_verdict_text(&r, &v, text, sizeof text);
		printf("  %s: %s%s %.3f (%.3f..%.3f): %s\n", a->settings[i].label, unit[m], what, r.ratio, r.low, r.high,
		       text);
	}
}

/* Why a setting has no in-function time m. */
static void print_no_fn_time(const struct ab *a, unsigned i, enum measure m)
{
	const char *what = m == M_FN ? "in-function" : "in-function (timed)";
	if (!a->settings[i].preload)
		printf("  %s: %s: not measured: the setting runs without the library (use --impl glibc for\n"
		       "  glibc's functions under it)\n", a->settings[i].label, what);
	else
		printf("  %s: %s: not measured: %s\n", a->settings[i].label, what,
		       m == M_FN ? a->settings[i].notes.profile : a->settings[i].notes.timing);
}

/* Setting i against base, size class by size class, for the classes every
 * run of both timed calls in. */
static void print_class_verdicts(const struct ab *a, unsigned i, unsigned base)
{
	for (unsigned c = 0; c < size_class_count && c < AB_CLASSES; c++) {
		struct paired_ratio r;
		char text[200];
		if (i == base || !every_run(a, class_series(a, i, c)) || !every_run(a, class_series(a, base, c)) ||
		    !paired_compare(class_series(a, i, c), class_series(a, base, c), a->runs, a->level, &r))
			continue;
		struct paired_verdict v = paired_judge(&r);
		paired_verdict_text(&r, &v, text, sizeof text);
		printf("    %-13s %.3f (%.3f..%.3f): %s\n", size_classes[c].name, r.ratio, r.low, r.high, text);
	}
}

static bool unresolved(const struct ab *a, unsigned i, unsigned base, enum measure m)
{
	struct paired_ratio r;
	return i != base && compare(a, i, base, m, &r) && paired_judge(&r).kind == PAIRED_UNRESOLVED;
}

/* Whether any verdict print_verdicts gives says "no difference resolvable". */
static bool any_unresolved(const struct ab *a)
{
	int fn_base = fn_baseline(a, M_FN), timed_base = fn_baseline(a, M_TIMED);
	for (unsigned i = 0; i < a->count; i++)
		if (unresolved(a, i, 0, M_WALL) || unresolved(a, i, 0, M_CPU) ||
		    (fn_base >= 0 && unresolved(a, i, (unsigned)fn_base, M_FN)) ||
		    (timed_base >= 0 && unresolved(a, i, (unsigned)timed_base, M_TIMED)))
			return true;
	return false;
}

/* The verdict of setting i on in-function measure m, or why it has none. */
static void print_fn_verdict(const struct ab *a, unsigned i, enum measure m)
{
	int base = fn_baseline(a, m);
	if (!has_fn_time(a, i, m))
		print_no_fn_time(a, i, m);
	else
		print_verdict(a, i, (unsigned)base, m, " per call");
	if (m == M_TIMED && has_fn_time(a, i, m))
		print_class_verdicts(a, i, (unsigned)base);
}

static void print_verdicts(const struct ab *a)
{
	printf("\nVerdicts: the ratio of the table and its %.4g%% interval (Student t on the logarithms of\n"
	       "the per-round ratios%s).\n",
	       100 * a->level, a->auto_runs ? "; the looks of --runs auto keep 5% in all" : "");
	if (any_unresolved(a))
		printf("Unresolved: about M runs would bring the interval's half-width to X, at the spread seen\n");
	printf("Wall time against %s:\n", a->settings[0].label);
	for (unsigned i = 0; i < a->count; i++)
		print_verdict(a, i, 0, M_WALL, "");
	printf("CPU time (user+system) against %s:\n", a->settings[0].label);
	for (unsigned i = 0; i < a->count; i++)
		print_verdict(a, i, 0, M_CPU, "");
	for (enum measure m = M_FN; m <= M_TIMED; m++) {
		if (!(m == M_FN ? a->profile : a->timing))
			continue;
		int fn_base = fn_baseline(a, m);
		const char *what = m == M_FN ? "In-function time per call" : "Timed time per call, overall then by size class";
		if (fn_base >= 0)
			printf("%s against %s%s:\n", what, a->settings[fn_base].label,
			       fn_base > 0 ? ", the first setting run under the library" : "");
		else
			printf("%s:\n", what);
		for (unsigned i = 0; i < a->count; i++)
			print_fn_verdict(a, i, m);
	}
}

static int report_failures(const struct ab *a)
{
	int rc = 0;
	for (unsigned i = 0; i < a->count; i++) {
		const struct setting *s = &a->settings[i];
		if (!s->failures)
			continue;
		if (WIFSIGNALED(s->last_status))
			fprintf(stderr, "memshim ab: %s (%s): the command failed in %u of %u runs (killed by signal %d)\n",
				s->label, s->meaning, s->failures, a->runs, WTERMSIG(s->last_status));
		else
			fprintf(stderr, "memshim ab: %s (%s): the command failed in %u of %u runs (exit status %d)\n",
				s->label, s->meaning, s->failures, a->runs, WEXITSTATUS(s->last_status));
		rc = 1;
	}
	return rc;
}

/* ---- --runs auto ---- */

/* The measure that settles setting i: its in-function time when it has
 * one (the timed calls', which are many more than the profile's samples,
 * else the profile's), else CPU time, else (too little CPU) wall time; the
 * setting it is set against in *base. */
static enum measure deciding(const struct ab *a, unsigned i, unsigned *base)
{
	static const enum measure in_function[] = { M_TIMED, M_FN };
	*base = 0;
	for (unsigned k = 0; k < sizeof in_function / sizeof in_function[0]; k++) {
		int fn_base = fn_baseline(a, in_function[k]);
		if (fn_base >= 0 && (int)i != fn_base && has_fn_time(a, i, in_function[k])) {
			*base = (unsigned)fn_base;
			return in_function[k];
		}
	}
	return too_short(a, i, M_CPU) || too_short(a, 0, M_CPU) ? M_WALL : M_CPU;
}

/* NULL while more rounds are worth running, else why not. */
static const char *stop_reason(const struct ab *a, double elapsed, unsigned next)
{
	if (too_short(a, 0, M_WALL))
		return "the runs are too short to time";
	bool settled = true;
	for (unsigned i = 1; i < a->count && settled; i++) {
		unsigned base;
		if (too_short(a, i, M_WALL)) /* more rounds won't give it a ratio */
			continue;
		enum measure m = deciding(a, i, &base);
		struct paired_ratio r;
		settled = compare(a, i, base, m, &r) && paired_judge(&r).kind != PAIRED_UNRESOLVED;
	}
	if (settled)
		return "every verdict is resolved";
	if (elapsed * next / a->runs > a->budget_s)
		return "the rounds to the next look would overrun the budget (--budget)";
	return a->runs == MAX_RUNS ? "the most runs ab keeps" : NULL;
}

/* ---- the command ---- */

/* The library's LD_PRELOAD for the command, computed once; the process's
 * own LD_PRELOAD is left as it was. */
static int prepare_preload(struct ab *a)
{
	const char *original = getenv("LD_PRELOAD");
	a->original_preload = original ? strdup(original) : NULL;
	if (cli_preload_library() != 0)
		return 2;
	a->preload = strdup(getenv("LD_PRELOAD"));
	if (a->original_preload)
		setenv("LD_PRELOAD", a->original_preload, 1);
	else
		unsetenv("LD_PRELOAD");
	return a->preload ? 0 : 1;
}

/* A command that is not there would fail every run alike: said before any
 * round, with the shell's statuses (as memshim run gives them). */
static int check_command(const char *name)
{
	char *path = cli_find_program(name);
	bool named_by_path = strchr(name, '/') != NULL;
	if (path) {
		free(path);
		return 0;
	}
	if (named_by_path && access(name, F_OK) == 0) {
		fprintf(stderr, "memshim ab: cannot run %s: it is not an executable file\n", name);
		return 126;
	}
	fprintf(stderr, "memshim ab: cannot run %s: %s\n", name,
		named_by_path ? "there is no such file" : "there is no such command in PATH");
	return 127;
}

static int prepare(struct ab *a)
{
	char why[4400];
	int rc = check_command(a->command[0]);
	if (rc)
		return rc;
	cli_prepare_preload("ab", a->command[0]); /* the line run gives for a program LD_PRELOAD cannot reach */
	rc = prepare_preload(a);
	a->level = a->auto_runs ? paired_auto_level(paired_auto_next_look(0)) : PAIRED_LEVEL;
	if (!rc && (a->profile || a->timing) && !ab_profile_open(a->dump_dir, sizeof a->dump_dir, why, sizeof why)) {
		fprintf(stderr, "memshim ab: %s\n", why);
		rc = 1;
	}
	if (!rc && !(a->values = calloc((size_t)a->count * M_COUNT * a->capacity, sizeof *a->values)))
		rc = 1;
	if (!rc && !(a->class_values = calloc((size_t)a->count * AB_CLASSES * a->capacity, sizeof *a->class_values)))
		rc = 1;
	return rc;
}

/* One run of every setting, in order: round r. */
static int run_round(struct ab *a, unsigned r)
{
	double measures[M_COUNT], by_class[AB_CLASSES];
	for (unsigned i = 0; i < a->count; i++) {
		if (!run_once(a, &a->settings[i], measures, by_class)) {
			fprintf(stderr, "memshim ab: cannot start a run: %s\n", strerror(errno));
			return 1;
		}
		for (enum measure m = 0; m < M_COUNT; m++)
			series(a, i, m)[r] = m == M_CYCLES || m == M_INSTRUCTIONS ? measures[m] / 1e6 : measures[m];
		for (unsigned c = 0; c < AB_CLASSES; c++)
			class_series(a, i, c)[r] = by_class[c];
	}
	return 0;
}

/* The rounds: a fixed number, or with --runs auto until stop_reason says. */
static int run_rounds(struct ab *a, const char **stopped)
{
	double start = seconds_now();
	unsigned target = a->auto_runs ? a->capacity : a->runs, look = paired_auto_next_look(0);
	for (unsigned r = 0; r < target; r++) {
		int rc = run_round(a, r);
		if (rc)
			return rc;
		a->runs = r + 1;
		if (!a->auto_runs || a->runs < look)
			continue;
		a->level = paired_auto_level(look);
		look = paired_auto_next_look(look);
		if ((*stopped = stop_reason(a, seconds_now() - start, look)))
			break;
	}
	return 0;
}

int cmd_ab(int argc, char **argv)
{
	if (cli_wants_help(argc, argv, ab_help, true))
		return 0;
	static struct ab a;
	const char *stopped = NULL;
	double start = seconds_now();
	int rc = parse_options(argc, argv, &a);
	if (!rc)
		rc = prepare(&a);
	if (!rc)
		rc = run_rounds(&a, &stopped);
	if (!rc) {
		print_header(&a);
		if (stopped)
			printf("  --runs auto: stopped after %u rounds (%.1f s): %s\n", a.runs, seconds_now() - start, stopped);
		print_table(&a);
		print_verdicts(&a);
		rc = report_failures(&a);
	}
	if (a.dump_dir[0])
		ab_profile_close(a.dump_dir);
	free(a.values);
	free(a.class_values);
	free(a.preload);
	free(a.original_preload);
	return rc;
}
