/* memshim ab: runs a command alternately under each setting (A B C A B C
 * ...), so that a slow spell of this shared machine hits every setting
 * alike, and reports medians and spreads of wall time, CPU time and, where
 * the kernel lets us count them, cycles and instructions; then a verdict
 * per setting from the runs paired by round (tools/util/paired_stats.h), and
 * with --profile the CPU time inside the functions per call, with --timing
 * the time per call of the timed calls (overall and by size class), from
 * each run's dumps (tools/ab/profile.h). */
#include "config.h"

#include "tools/commands.h"

#include "dispatch/config.h"
#include "tools/ab/ab.h"
#include "tools/util/cli.h"
#include "tools/util/cli_options.h"
#include "tools/util/cli_reach.h"
#include "tools/ab/glibc_tunables.h"
#include "tools/util/launch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char ab_help[] =
	"usage: memshim ab [--runs N|auto] [--budget SECONDS] [--profile[=HZ]] [--timing[=N]]\n"
	"                  [--impl A,B,...] [--env 'K=V ...']... [--tunables T=V:...]... [--show-output]\n"
	"                  [--in-process [--block N] [--csv FILE]] -- COMMAND [ARGS...]\n"
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
	"                  --timing, else --profile) or the budget runs out; after\n"
	"                  the first rounds it says the smallest difference the\n"
	"                  budget's rounds would resolve\n"
	"  --budget S      the time --runs auto may take, in seconds (default 60)\n"
	"  --profile[=HZ]  run the library's settings with MEMSHIM_PROFILE (HZ samples\n"
	"                  per CPU second; default: the library's) and compare the CPU\n"
	"                  time inside memcpy, memmove and memset per call\n"
	"  --timing[=N]    run the library's settings with MEMSHIM_TIMING (one call in N\n"
	"                  timed with the time-stamp counter; default on: N = 64) and\n"
	"                  compare the time per call inside the three functions, overall\n"
	"                  and by size class\n"
	"  --impl LIST     one setting per item: a variant or preset (memshim run --impl),\n"
	"                  or `none`: without the library\n"
	"  --env 'K=V ...' one setting: the library with these variables (repeatable)\n"
	"  --tunables T    one setting: without the library, with GLIBC_TUNABLES=T\n"
	"                  (glibc.NAME=VALUE items joined by `:`; repeatable)\n"
	"  --show-output   keep the command's standard output (default: /dev/null)\n"
	"  --in-process    instead: one run with both settings of --impl A,B inside it:\n"
	"                  each thread's calls alternate between A and B in blocks, A or\n"
	"                  B first in each pair of blocks at random, every call timed;\n"
	"                  per size class, B's time per call against A's (the median of\n"
	"                  the ratios of the pairs that called it in both arms, its 95%\n"
	"                  interval); per function, its classes weighed by A's time (the\n"
	"                  interval from resampling the pairs); and the share of the\n"
	"                  run's CPU time B would save or add\n"
	"  --block N       --in-process: a block's calls (default 1024; 16 to 16777216;\n"
	"                  doubled whenever the pairs fill the library's store)\n"
	"                  With --in-process, --runs N (1 to 9, default 1) runs it N times:\n"
	"                  each ratio the median of the runs', its interval from the\n"
	"                  least to the greatest end of theirs, \"runs disagree\" where\n"
	"                  theirs do not overlap\n"
	"  --csv FILE      --in-process: its table, one line per function and size\n"
	"                  class and one (class \"all\") per function: function, class,\n"
	"                  setting_a, setting_b, calls_a, calls_b, ns_per_call_a,\n"
	"                  ns_per_call_b, ratio, ratio_low, ratio_high, pairs; written\n"
	"                  only by a run that succeeds, replacing the file, as bench --csv\n"
	"Settings run in the order given; without any: --impl none,kernel.  A run that\n"
	"exits non-zero is reported, and the exit status is then 1.  A COMMAND that is\n"
	"not found ends ab with status 127 before any run, one that cannot be run 126.\n";


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
			return cli_usage_error("ab", "more than %d settings", MAX_SETTINGS);
		size_t kept = len < sizeof s->label - 1 ? len : sizeof s->label - 1;
		memcpy(s->label, p, kept);
		s->label[kept] = '\0';
		if (strcmp(s->label, "none") == 0) {
			s->preload = false;
			snprintf(s->meaning, sizeof s->meaning, "without the library");
		} else if (!config_name_known(s->label)) {
			const char *meant = config_name_meant(s->label);
			return cli_usage_error("ab", "--impl: \"%s\" is not a variant, a preset or none%s%s%s", s->label,
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
		return cli_usage_error("ab", "more than %d settings", MAX_SETTINGS);
	if (strlen(text) >= sizeof s->text)
		return cli_usage_error("ab", "--env \"%.40s...\" is too long", text);
	s->kind = KIND_ENV;
	snprintf(s->label, sizeof s->label, "%.*s", (int)sizeof s->label - 1, text);
	snprintf(s->text, sizeof s->text, "%s", text);
	snprintf(s->meaning, sizeof s->meaning, "the library with %s", text);
	unsigned n = 0;
	for (char *word = strtok(s->text, " "); word; word = strtok(NULL, " ")) {
		if (!strchr(word, '=') || word[0] == '=' || n == MAX_VARS)
			return cli_usage_error("ab", "--env \"%s\": expected up to %d NAME=VALUE words", text, MAX_VARS);
		s->vars[n++] = word;
	}
	return n ? 0 : cli_usage_error("ab", "--env needs NAME=VALUE words");
}

/* One setting without the library: GLIBC_TUNABLES=text. */
static int add_tunables(struct ab *a, const char *text)
{
	struct setting *s = new_setting(a);
	char why[300];
	if (!s)
		return cli_usage_error("ab", "more than %d settings", MAX_SETTINGS);
	if (strlen(text) + sizeof "GLIBC_TUNABLES=" > sizeof s->text)
		return cli_usage_error("ab", "--tunables \"%.40s...\" is too long", text);
	if (!glibc_tunables_check(text, why, sizeof why))
		return cli_usage_error("ab", "--tunables %s", why);
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
		return cli_usage_error("ab", "--runs \"%s\" is not auto or a number from 1 to %d", value, MAX_RUNS);
	a->runs_given = true;
	return 0;
}

static int parse_budget(const char *value, struct ab *a)
{
	char *end;
	errno = 0;
	double s = strtod(value, &end);
	if (!*value || *end || errno || !(s > 0) || s > 86400)
		return cli_usage_error("ab", "--budget \"%s\" is not a number of seconds from 0 to 86400", value);
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
		return cli_usage_error("ab", "--profile=\"%s\": expected samples per second from %d to %d", value,
				   PROFILE_HZ_MIN, PROFILE_MAX_HZ);
	a->profile = value;
	return 0;
}

/* --timing or --timing=N */
static int parse_timing(const char *value, struct ab *a)
{
	unsigned every;
	if (value && !cli_whole_number(value, 1, TIMING_MAX_EVERY, &every))
		return cli_usage_error("ab", "--timing=\"%s\": expected one call in N timed, N from 1 to %d", value, TIMING_MAX_EVERY);
	a->timing = value ? value : "on";
	return 0;
}

/* --block N: MEMSHIM_AB_BLOCK's range */
static int parse_block(const char *value, struct ab *a)
{
	unsigned n;
	if (!cli_whole_number(value, 16, AB_MAX_BLOCK, &n))
		return cli_usage_error("ab", "--block \"%s\": expected the calls of a block, 16 to %d", value, AB_MAX_BLOCK);
	snprintf(a->block, sizeof a->block, "%u", n);
	return 0;
}

enum {
	AB_SHOW_OUTPUT = 1, AB_PROFILE, AB_TIMING, AB_RUNS, AB_BUDGET, AB_IMPL, AB_ENV, AB_TUNABLES, AB_IN_PROCESS,
	AB_BLOCK, AB_CSV
};

static const struct option ab_options[] = {
	{ "runs", required_argument, NULL, AB_RUNS },
	{ "budget", required_argument, NULL, AB_BUDGET },
	{ "impl", required_argument, NULL, AB_IMPL },
	{ "env", required_argument, NULL, AB_ENV },
	{ "tunables", required_argument, NULL, AB_TUNABLES },
	{ "profile", optional_argument, NULL, AB_PROFILE },
	{ "timing", optional_argument, NULL, AB_TIMING },
	{ "show-output", no_argument, NULL, AB_SHOW_OUTPUT },
	{ "in-process", no_argument, NULL, AB_IN_PROCESS },
	{ "block", required_argument, NULL, AB_BLOCK },
	{ "csv", required_argument, NULL, AB_CSV },
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
	case AB_IN_PROCESS:
		a->in_process = true;
		return 0;
	case AB_BLOCK:
		return parse_block(value, a);
	case AB_CSV:
		a->csv = value;
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

static int prepare(struct ab *a)
{
	char why[4400];
	/* A command that is not there would fail every run alike: said before
	 * any round, with the shell's statuses (as memshim run gives them). */
	int rc = run_check("ab", a->command[0]);
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

/* --runs auto, at its first look: the smallest difference the last look
 * the budget holds would resolve, at the spread the first rounds show,
 * said before the rest run, so that a question too fine for the budget is
 * known as such at once.  The rounds are those of a look, as the stop rule
 * stops only at one. */
static void say_resolvable(const struct ab *a, double elapsed)
{
	const char *measure = "";
	unsigned rounds = ab_last_look(a, elapsed);
	double d = ab_resolvable(a, rounds, &measure);
	if (d > 0)
		printf("memshim ab: --runs auto: at the spread of the first %u rounds, its last look within the budget,\n"
		       "  after %u rounds, would resolve a difference of %.1f%% or more (%s)\n", a->runs, rounds, 100 * d,
		       measure);
	fflush(stdout);
}

/* The rounds: a fixed number, or with --runs auto until stop_reason says. */
static int run_rounds(struct ab *a, const char **stopped)
{
	double start = seconds_now();
	unsigned target = a->auto_runs ? a->capacity : a->runs, look = paired_auto_next_look(0);
	for (unsigned r = 0; r < target; r++) {
		int rc = ab_run_round(a, r);
		if (rc)
			return rc;
		a->runs = r + 1;
		if (!a->auto_runs || a->runs < look)
			continue;
		if (look == paired_auto_next_look(0))
			say_resolvable(a, seconds_now() - start);
		a->level = paired_auto_level(look);
		look = paired_auto_next_look(look);
		if ((*stopped = ab_stop_reason(a, seconds_now() - start, look)))
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
	if (!rc && a.block[0] && !a.in_process)
		rc = cli_usage_error("ab", "--block is for --in-process");
	if (!rc && a.csv && !a.in_process)
		rc = cli_usage_error("ab", "--csv is for --in-process");
	if (!rc && a.in_process) {
		rc = run_check("ab", a.command[0]);
		if (!rc)
			cli_prepare_preload("ab", a.command[0]);
		rc = rc ? rc : prepare_preload(&a);
		rc = rc ? rc : ab_in_process(&a);
		if (a.dump_dir[0])
			ab_profile_close(a.dump_dir);
		free(a.preload);
		free(a.original_preload);
		return rc;
	}
	if (!rc)
		rc = prepare(&a);
	if (!rc)
		rc = run_rounds(&a, &stopped);
	if (!rc) {
		ab_print_header(&a);
		if (stopped)
			printf("  --runs auto: stopped after %u rounds (%.1f s): %s\n", a.runs, seconds_now() - start, stopped);
		ab_print_table(&a);
		ab_print_verdicts(&a);
		rc = ab_report_failures(&a);
	}
	if (a.dump_dir[0])
		ab_profile_close(a.dump_dir);
	free(a.values);
	free(a.class_values);
	free(a.preload);
	free(a.original_preload);
	return rc;
}

