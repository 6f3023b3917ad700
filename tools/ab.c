/* memshim ab: runs a command alternately under each setting (A B C A B C
 * ...), so that a slow spell of this shared machine hits every setting
 * alike, and reports medians and spreads of wall time, CPU time and, where
 * the kernel lets us count them, cycles and instructions. */
#include "config.h"

#include "tools/ab.h"

#include "dispatch/config.h"
#include "tools/cli.h"
#include "tools/cli_options.h"
#include "tools/cost_model.h"

#include <errno.h>
#include <fcntl.h>
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
	"usage: memshim ab [--runs N] [--impl A,B,...] [--env 'K=V ...']... [--show-output] -- COMMAND [ARGS...]\n"
	"Runs COMMAND N times under each setting, interleaved (A B C A B C ...), and\n"
	"prints per setting the median and min..max of wall time, user+system time\n"
	"and, where perf events are allowed, user-space cycles and instructions, with\n"
	"the ratio of each median to the first setting's.\n"
	"  --runs N        runs per setting (default 5)\n"
	"  --impl LIST     one setting per item: a variant or policy (memshim run --impl),\n"
	"                  or `none`: without the library\n"
	"  --env 'K=V ...' one setting: the library with these variables (repeatable)\n"
	"  --show-output   keep the command's standard output (default: /dev/null)\n"
	"Settings run in the order given; without any: --impl none,kernel.  A run that\n"
	"exits non-zero is reported, and the exit status is then 1.\n";

#define MAX_SETTINGS 16
#define MAX_RUNS 1000
#define MAX_VARS 16

struct setting {
	char label[96];
	bool preload;
	char *vars[MAX_VARS + 1]; /* "K=V" to set, NULL-terminated */
	char text[512];           /* the storage vars point into */
	unsigned failures;
	int last_status;
};

enum measure { M_WALL, M_CPU, M_CYCLES, M_INSTRUCTIONS, M_COUNT };

struct ab {
	struct setting settings[MAX_SETTINGS];
	unsigned count, runs;
	bool show_output;
	char **command;
	char *preload, *original_preload; /* LD_PRELOAD with and without the library */
	double *values;                   /* [(setting * M_COUNT + measure) * runs + run] */
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
		if (strcmp(s->label, "none") == 0)
			s->preload = false;
		else if (!config_name_known(s->label))
			return usage_error("--impl: \"%s\" is not a variant, a policy or none", s->label);
		else {
			memcpy(s->text, "MEMSHIM_IMPL=", 13); /* label and text are both in *s: no snprintf from one to the other */
			memcpy(s->text + 13, s->label, kept + 1);
			s->vars[0] = s->text;
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
	snprintf(s->label, sizeof s->label, "%.*s", (int)sizeof s->label - 1, text);
	snprintf(s->text, sizeof s->text, "%s", text);
	unsigned n = 0;
	for (char *word = strtok(s->text, " "); word; word = strtok(NULL, " ")) {
		if (!strchr(word, '=') || word[0] == '=' || n == MAX_VARS)
			return usage_error("--env \"%s\": expected up to %d NAME=VALUE words", text, MAX_VARS);
		s->vars[n++] = word;
	}
	return n ? 0 : usage_error("--env needs NAME=VALUE words");
}

static int parse_runs(const char *value, struct ab *a)
{
	char *end;
	errno = 0;
	long n = strtol(value, &end, 10);
	if (!*value || *end || errno || n < 1 || n > MAX_RUNS)
		return usage_error("--runs \"%s\" is not a number from 1 to %d", value, MAX_RUNS);
	a->runs = (unsigned)n;
	return 0;
}

static int apply_option(struct ab *a, const char *name, const char *value)
{
	if (strcmp(name, "--runs") == 0)
		return parse_runs(value, a);
	if (strcmp(name, "--impl") == 0)
		return add_impls(a, value);
	return add_env(a, value);
}

enum { AB_SHOW_OUTPUT = 1, AB_VALUE };

static const struct option ab_options[] = {
	{ "runs", required_argument, NULL, AB_VALUE },
	{ "impl", required_argument, NULL, AB_VALUE },
	{ "env", required_argument, NULL, AB_VALUE },
	{ "show-output", no_argument, NULL, AB_SHOW_OUTPUT },
	{ 0 },
};

static int apply_any_option(void *context, int id, const char *name, const char *value)
{
	struct ab *a = context;
	if (id == AB_SHOW_OUTPUT) {
		a->show_output = true;
		return 0;
	}
	return apply_option(a, name, value);
}

static int parse_options(int argc, char **argv, struct ab *a)
{
	a->runs = 5;
	const struct cli_syntax syntax = { "ab", ab_options, true };
	int first, rc = cli_parse_options(argc, argv, &syntax, apply_any_option, a, &first);
	if (rc)
		return rc;
	a->command = argv + first;
	return a->count ? 0 : add_impls(a, "none,kernel");
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

static void set_environment(const struct ab *a, const struct setting *s)
{
	const char *preload = s->preload ? a->preload : a->original_preload;
	if (preload)
		setenv("LD_PRELOAD", preload, 1);
	else
		unsetenv("LD_PRELOAD");
	for (char *const *v = s->vars; *v; v++)
		putenv(*v);
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

/* One run of setting s; its measures in out[M_COUNT]; false if it could not start. */
static bool run_once(struct ab *a, struct setting *s, double *out)
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
		snprintf(a->counter_note, sizeof a->counter_note, "not counted (perf_event_open: %s)", strerror(errno));
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

/* ---- the report ---- */

static double *series(const struct ab *a, unsigned setting, enum measure m)
{
	return a->values + ((size_t)setting * M_COUNT + m) * a->runs;
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

static void print_cell(const struct ab *a, unsigned setting, enum measure m, const char *format)
{
	struct summary s = summarise(a, setting, m), first = summarise(a, 0, m);
	char text[96];
	snprintf(text, sizeof text, format, s.median, s.min, s.max);
	printf(" %-27s %6.3f", text, first.median > 0 ? s.median / first.median : 0);
}

static void print_report(const struct ab *a)
{
	printf("memshim ab: %u runs of each of %u settings, interleaved\n", a->runs, a->count);
	printf("  wall: clock_gettime(CLOCK_MONOTONIC) from the start signal to wait4; cpu: user+system\n"
	       "  from wait4's rusage (the command and its children); cycles, instructions: %s\n",
	       a->counters ? "perf_event_open, user space, inherited by the command's children" : a->counter_note);
	printf("  each cell: median (min..max); ratio: median / the first setting's median\n");
	printf("%-24s %-27s %6s %-27s %6s", "setting", "wall s", "ratio", "user+sys s", "ratio");
	if (a->counters)
		printf(" %-27s %6s %-27s %6s", "cycles (1e6)", "ratio", "instructions (1e6)", "ratio");
	printf("\n");
	for (unsigned i = 0; i < a->count; i++) {
		printf("%-24.24s", a->settings[i].label);
		print_cell(a, i, M_WALL, "%.3f (%.3f..%.3f)");
		print_cell(a, i, M_CPU, "%.3f (%.3f..%.3f)");
		if (a->counters) {
			print_cell(a, i, M_CYCLES, "%.0f (%.0f..%.0f)");
			print_cell(a, i, M_INSTRUCTIONS, "%.0f (%.0f..%.0f)");
		}
		printf("\n");
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
			fprintf(stderr, "memshim ab: %s: the command failed in %u of %u runs (killed by signal %d)\n",
				s->label, s->failures, a->runs, WTERMSIG(s->last_status));
		else
			fprintf(stderr, "memshim ab: %s: the command failed in %u of %u runs (exit status %d)\n",
				s->label, s->failures, a->runs, WEXITSTATUS(s->last_status));
		rc = 1;
	}
	return rc;
}

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

static void scale_counters(struct ab *a)
{
	for (unsigned i = 0; i < a->count; i++)
		for (enum measure m = M_CYCLES; m <= M_INSTRUCTIONS; m++)
			for (unsigned r = 0; r < a->runs; r++)
				series(a, i, m)[r] /= 1e6;
}

int cmd_ab(int argc, char **argv)
{
	if (cli_wants_help(argc, argv, ab_help, true))
		return 0;
	static struct ab a;
	int rc = parse_options(argc, argv, &a);
	if (!rc)
		rc = prepare_preload(&a);
	if (!rc && !(a.values = calloc((size_t)a.count * M_COUNT * a.runs, sizeof *a.values)))
		rc = 1;
	double measures[M_COUNT];
	for (unsigned r = 0; !rc && r < a.runs; r++)
		for (unsigned i = 0; !rc && i < a.count; i++) {
			if (!run_once(&a, &a.settings[i], measures)) {
				fprintf(stderr, "memshim ab: cannot start a run: %s\n", strerror(errno));
				rc = 1;
			}
			for (enum measure m = 0; m < M_COUNT; m++)
				series(&a, i, m)[r] = measures[m];
		}
	if (!rc) {
		scale_counters(&a);
		print_report(&a);
		rc = report_failures(&a);
	}
	free(a.values);
	free(a.preload);
	free(a.original_preload);
	return rc;
}
