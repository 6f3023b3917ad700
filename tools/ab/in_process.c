/* memshim ab --in-process: one run of the command with both settings inside
 * it (MEMSHIM_AB, preload/ab.h): each thread's calls alternate between A
 * and B block by block, and each pair of blocks is one observation of B
 * against A in the same phase of the same process.  Per size class: B's
 * time per call against A's, the median of the ratios of the pairs that
 * called it in both arms, with its 95% interval (tools/measure/round_stats.h,
 * as bench gives it).  Per function, its headline: the classes weighed by
 * A's time (tools/ab/weighed.h), since a median over every pair lets the
 * pairs that hold only cheap calls outvote the few where the time goes.
 * With --runs N, N runs, combined as bench combines its processes: what is
 * fixed for a process's life (where its buffers lie) moves a whole run. */
#include "tools/ab/ab.h"

#include "dispatch/config.h"
#include "dispatch/settings.h"
#include "dispatch/variants.h"
#include "dispatch/cpu_features.h"
#include "tools/ab/weighed.h"
#include "tools/measure/round_stats.h"
#include "tools/util/cli_options.h"
#include "tools/util/launch.h"
#include "dump/reader/read.h"
#include "tools/util/output_file.h"
#include "tools/util/quantile.h"
#include "tools/util/units_shares.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* The most runs --runs gives --in-process. */
#define MAX_IN_PROCESS_RUNS 9

/* One run: its dumps, added up, and what it took. */
struct run {
	struct dump d;
	double cpu, wall;
};

/* One line of the table: its pairs, calls and ns under each arm, and B/A;
 * over several runs, the median of the runs' ratios, the interval from the
 * least to the greatest end of theirs, and whether theirs fail to overlap. */
struct cell {
	unsigned pairs;
	bool disagree;
	double a_ns, b_ns, a_calls, b_calls;
	struct round_summary s;
};

/* Fewer pairs than this give a line no verdict, and the run no saving:
 * their median's interval rests on too few observations to hold. */
#define MIN_PAIRS 10

static double per_call(double ns, double calls) { return calls ? ns / calls : 0; }

/* A line's functions and classes: every function; a function's classes
 * weighed (its headline); the mask of every class. */
#define ALL_FUNCTIONS (-1)
#define HEADLINE AB_PAIR_CLASSES
#define EVERY_CLASS ((1u << AB_PAIR_CLASSES) - 1)

/* Whether word ("NAME=VALUE") sets a function's variant (MEMSHIM_IMPL,
 * MEMSHIM_MEMCPY, ...): an arm's own; the other variables are thresholds,
 * the process's, which both arms run under. */
static bool selects_variant(const char *word)
{
	size_t len = strcspn(word, "=");
	for (int fn = 0; fn < FN_COUNT; fn++)
		if (strlen(setting_keys(function_setting((enum base_function)fn))->variable) == len &&
		    strncmp(word, setting_keys(function_setting((enum base_function)fn))->variable, len) == 0)
			return true;
	return strlen(setting_keys(S_IMPL)->variable) == len && strncmp(word, setting_keys(S_IMPL)->variable, len) == 0;
}

/* An arm as the library's MEMSHIM_AB takes it: --impl's setting, or an
 * --env line of variables (tune's suggestion: a variant per function)
 * with its variant words only; its threshold words into thresholds. */
static void arm_text(const struct setting *s, char *arm, size_t size, char *thresholds, size_t tsize)
{
	arm[0] = thresholds[0] = '\0';
	if (s->kind == KIND_IMPL) {
		snprintf(arm, size, "%s", s->label);
		return;
	}
	for (unsigned i = 0; s->vars[i]; i++) {
		char *out = selects_variant(s->vars[i]) ? arm : thresholds;
		size_t room = out == arm ? size : tsize, len = strlen(out);
		snprintf(out + len, room - len, "%s%s", len ? " " : "", s->vars[i]);
	}
}

/* Whether the arm gives glibc's own to every function. */
static bool all_glibc(const char *arm)
{
	for (int fn = 0; fn < FN_COUNT; fn++) {
		struct band_list bands;
		if (config_setting_bands(arm, (enum base_function)fn, &bands) || bands.count != 1 ||
		    bands.variant[0] != VARIANT(glibc))
			return false;
	}
	return true;
}

/* An --env arm: MEMSHIM_ variables only (a variant per function, and
 * thresholds), and thresholds unlike the other arm's only where that one is
 * glibc's own: the two arms share one process and its thresholds. */
static int check_arms(const struct ab *a)
{
	char arm[2][BAND_TEXT_MAX], thresholds[2][512];
	for (int i = 0; i < 2; i++) {
		const struct setting *s = &a->settings[i];
		for (unsigned w = 0; s->kind == KIND_ENV && s->vars[w]; w++)
			if (strncmp(s->vars[w], "MEMSHIM_", 8) != 0) {
				fprintf(stderr, "memshim ab: --in-process: --env %s: an arm takes MEMSHIM_ variables only\n",
					s->vars[w]);
				return 2;
			}
		arm_text(s, arm[i], sizeof arm[i], thresholds[i], sizeof thresholds[i]);
	}
	if (strcmp(thresholds[0], thresholds[1]) != 0 && !all_glibc(arm[0]) && !all_glibc(arm[1])) {
		fprintf(stderr, "memshim ab: --in-process: the arms' thresholds differ (\"%s\", \"%s\"); both arms run in "
				"one process under one set: give both the same, or compare with glibc\n",
			thresholds[0], thresholds[1]);
		return 2;
	}
	return 0;
}

/* The problem with the two settings, said in one line; 0 if none. */
static int check_settings(const struct ab *a)
{
	bool library = a->count == 2;
	for (unsigned i = 0; library && i < 2; i++)
		library = (a->settings[i].kind == KIND_IMPL || a->settings[i].kind == KIND_ENV) && a->settings[i].preload;
	if (!library) {
		fprintf(stderr, "memshim ab: --in-process compares two settings of the library: --impl A,B, or --impl A\n"
				"with --env 'MEMSHIM_MEMCPY=... MEMSHIM_MEMMOVE=...' (tune's suggestion)\n");
		return 2;
	}
	if (check_arms(a))
		return 2;
	if (a->profile || a->timing || a->auto_runs) {
		fprintf(stderr, "memshim ab: --in-process times every call itself: no --profile, --timing or "
				"--runs auto\n");
		return 2;
	}
	for (int fn = 0; fn < FN_COUNT; fn++) {
		struct band_list bands[2];
		for (int i = 0; i < 2; i++) {
			char arm[BAND_TEXT_MAX], thresholds[512];
			arm_text(&a->settings[i], arm, sizeof arm, thresholds, sizeof thresholds);
			const char *problem = config_setting_bands(arm, fn, &bands[i]);
			if (problem) {
				fprintf(stderr, "memshim ab: %s %s: %s\n", a->settings[i].kind == KIND_IMPL ? "--impl" : "--env",
					arm, problem);
				return 2;
			}
		}
		if (bands[0].count > 1 && bands[1].count > 1) {
			fprintf(stderr, "memshim ab: --in-process: %s and %s both give %s size bands; one of them may\n",
				a->settings[0].label, a->settings[1].label, base_function_names[fn]);
			return 2;
		}
	}
	return 0;
}

/* The child's environment: the library with both settings, its dumps
 * into the directory `what`. */
static void both_arms(const struct ab *a, const void *what)
{
	char hist[4200], both[2 * BAND_TEXT_MAX + 2], arm[2][BAND_TEXT_MAX], thresholds[2][512];
	snprintf(hist, sizeof hist, "%s/h.%%p", (const char *)what);
	for (int i = 0; i < 2; i++) {
		arm_text(&a->settings[i], arm[i], sizeof arm[i], thresholds[i], sizeof thresholds[i]);
		for (unsigned w = 0; a->settings[i].kind == KIND_ENV && a->settings[i].vars[w]; w++)
			if (!selects_variant(a->settings[i].vars[w]))
				putenv(a->settings[i].vars[w]); /* check_arms: the same in both, or the other glibc's */
	}
	snprintf(both, sizeof both, "%s/%s", arm[0], arm[1]);
	setenv("LD_PRELOAD", a->preload, 1);
	launch_set_dump(hist);
	setenv("MEMSHIM_AB", both, 1);
	if (a->block[0])
		setenv("MEMSHIM_AB_BLOCK", a->block, 1);
}

/* The pair's calls and ns in the functions in fns (a bit each) and the
 * classes in want, added to c. */
static void add_calls(const struct ab_pair *p, unsigned fns, unsigned want, struct cell *c)
{
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (unsigned k = 0; (fns >> fn & 1) && k < AB_PAIR_CLASSES; k++)
			if (want >> k & 1) {
				c->a_ns += (double)p->ns[0][fn][k], c->b_ns += (double)p->ns[1][fn][k];
				c->a_calls += (double)p->calls[0][fn][k], c->b_calls += (double)p->calls[1][fn][k];
			}
}

/* The cell of function fn and class k: the median of the ratios of the
 * pairs that called it in both arms. */
static struct cell class_cell(const struct dump_ab *ab, int fn, unsigned k)
{
	struct cell c = { 0 };
	double *ratios = malloc((ab->pair_count ? ab->pair_count : 1) * sizeof *ratios);
	for (size_t i = 0; ratios && i < ab->pair_count; i++) {
		double r = ab_pair_ratio(&ab->pairs[i], fn, k);
		add_calls(&ab->pairs[i], 1u << fn, 1u << k, &c);
		if (r >= 0)
			ratios[c.pairs++] = r;
	}
	if (ratios)
		c.s = round_summarise(ratios, NULL, c.pairs);
	free(ratios);
	return c;
}

/* The headline cell of the functions in fns: their classes weighed by A's
 * time (tools/ab/weighed.h); its pairs, those that hold a class. */
static struct cell weighed_cell(const struct dump_ab *ab, unsigned fns)
{
	struct cell c = { 0 };
	for (size_t i = 0; i < ab->pair_count; i++)
		add_calls(&ab->pairs[i], fns, EVERY_CLASS, &c);
	struct ab_weighed w = ab_weigh_classes(ab->pairs, ab->pair_count, fns, AB_WEIGHED_RESAMPLES, AB_WEIGHED_SEED);
	c.pairs = w.pairs;
	c.s.ratio = w.ratio, c.s.ratio_low = w.low, c.s.ratio_high = w.high;
	return c;
}

/* The cell over every run that has pairs in it: of function fn (or every
 * function: ALL_FUNCTIONS) and class k, or with k HEADLINE their classes
 * weighed.  Several runs combine their weighed ratios as they combine their
 * medians, not their pairs into one resample: what is fixed for a
 * process's life (where its buffers lie) moves a whole run's pairs
 * together, so they are not independent draws. */
static struct cell combined_cell(const struct run *runs, unsigned count, int fn, unsigned k)
{
	unsigned fns = fn == ALL_FUNCTIONS ? (1u << FN_COUNT) - 1 : 1u << fn;
	struct cell all = { 0 };
	double ratios[MAX_IN_PROCESS_RUNS], most_low = 0, least_high = 0;
	unsigned n = 0;
	for (unsigned i = 0; i < count; i++) {
		const struct dump_ab *ab = &runs[i].d.ab;
		struct cell c = k == HEADLINE ? weighed_cell(ab, fns) : class_cell(ab, fn, k);
		if (!c.pairs)
			continue;
		all.pairs += c.pairs;
		all.a_ns += c.a_ns, all.b_ns += c.b_ns, all.a_calls += c.a_calls, all.b_calls += c.b_calls;
		all.s.ratio_low = !n || c.s.ratio_low < all.s.ratio_low ? c.s.ratio_low : all.s.ratio_low;
		all.s.ratio_high = !n || c.s.ratio_high > all.s.ratio_high ? c.s.ratio_high : all.s.ratio_high;
		most_low = !n || c.s.ratio_low > most_low ? c.s.ratio_low : most_low;
		least_high = !n || c.s.ratio_high < least_high ? c.s.ratio_high : least_high;
		ratios[n++] = c.s.ratio;
	}
	all.s.ratio = n ? quantile(ratios, n, 0.5) : 0;
	all.disagree = n > 1 && most_low > least_high;
	return all;
}

/* Why a line's interval gives no verdict; NULL where it does. */
static const char *no_verdict(const struct cell *c)
{
	return c->pairs < MIN_PAIRS ? "too few pairs" : c->disagree ? "runs disagree" : NULL;
}

/* B against A, by ab's one rule (paired_verdict_of), or why none. */
static const char *verdict(const struct cell *c)
{
	const char *why = no_verdict(c);
	return why ? why : paired_verdict_words(paired_verdict_of(c->s.ratio_low, c->s.ratio_high));
}

/* The line under the table (ab_saving_text), from the first line's cell. */
static void print_saving(const struct cell *every, double cpu)
{
	char text[400];
	double a_time = per_call(every->a_ns, every->a_calls) * (every->a_calls + every->b_calls);
	if (!(cpu > 0 && a_time > 0))
		return;
	ab_saving_text(a_time / 1e9 / cpu, every->s.ratio, every->s.ratio_low, every->s.ratio_high, no_verdict(every),
		       text, sizeof text);
	printf("  %s\n", text);
}

static void print_cell(const char *fn, const char *class, const struct cell *c)
{
	printf("  %-8s %-14s %12.0f %12.0f %9.2f %9.2f %7.3f  %.3f-%.3f  %6u  %s\n", fn, class, c->a_calls, c->b_calls,
	       per_call(c->a_ns, c->a_calls), per_call(c->b_ns, c->b_calls), c->s.ratio, c->s.ratio_low,
	       c->s.ratio_high, c->pairs, verdict(c));
}

/* The table's cells, each measured once for the text and --csv: every
 * function's headline, and by function its classes and ([HEADLINE]) its
 * own.  A cell without pairs has no line. */
struct table {
	struct cell every, cells[FN_COUNT][HEADLINE + 1];
};

static void measure_table(const struct run *runs, unsigned count, struct table *t)
{
	t->every = combined_cell(runs, count, ALL_FUNCTIONS, HEADLINE);
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (unsigned k = 0; k <= HEADLINE; k++)
			t->cells[fn][k] = combined_cell(runs, count, fn, k);
}

/* The table: every function, then each of its size classes with pairs. */
static void print_table(const struct table *t, double cpu)
{
	const struct cell *every = &t->every;
	printf("  %-8s %-14s %12s %12s %9s %9s %7s  %-11s  %6s  %s\n", "function", "size class", "calls A", "calls B",
	       "ns/call A", "ns/call B", "B/A", "95%", "pairs", "verdict");
	print_cell("all", "", every);
	for (int fn = 0; fn < FN_COUNT; fn++) {
		if (!t->cells[fn][HEADLINE].pairs)
			continue;
		print_cell(base_function_names[fn], "all", &t->cells[fn][HEADLINE]);
		for (unsigned k = 0; k < HEADLINE && k < size_class_count; k++)
			if (t->cells[fn][k].pairs)
				print_cell("", size_classes[k].name, &t->cells[fn][k]);
	}
	print_saving(every, cpu);
}

static void csv_row(FILE *out, const struct ab *a, int fn, const char *class, const struct cell *c)
{
	fprintf(out, "%s,%s,%s,%s,%.0f,%.0f,%.4f,%.4f,%.4f,%.4f,%.4f,%u\n", base_function_names[fn], class,
		a->settings[0].label, a->settings[1].label, c->a_calls, c->b_calls, per_call(c->a_ns, c->a_calls),
		per_call(c->b_ns, c->b_calls), c->s.ratio, c->s.ratio_low, c->s.ratio_high, c->pairs);
}

/* --csv: the table's lines of each function, its headline first ("all"). */
static void write_csv(FILE *out, const struct ab *a, const struct table *t)
{
	fprintf(out, "function,class,setting_a,setting_b,calls_a,calls_b,ns_per_call_a,ns_per_call_b,ratio,ratio_low,"
		     "ratio_high,pairs\n");
	for (int fn = 0; fn < FN_COUNT; fn++) {
		if (!t->cells[fn][HEADLINE].pairs)
			continue;
		csv_row(out, a, fn, "all", &t->cells[fn][HEADLINE]);
		for (unsigned k = 0; k < HEADLINE && k < size_class_count; k++)
			if (t->cells[fn][k].pairs)
				csv_row(out, a, fn, size_classes[k].name, &t->cells[fn][k]);
	}
}

static void print_header(const struct ab *a, const struct run *runs, unsigned count, double cpu, double wall)
{
	const struct cpu_features *f = cpu_features();
	uint64_t dropped = 0, block = 0;
	size_t pairs = 0;
	unsigned processes = 0;
	for (unsigned i = 0; i < count; i++) {
		const struct dump_ab *ab = &runs[i].d.ab;
		for (int fn = 0; fn < FN_COUNT; fn++)
			dropped += ab->dropped[fn][0] + ab->dropped[fn][1];
		pairs += ab->pair_count, processes += ab->processes;
		block = ab->block_calls > block ? ab->block_calls : block;
	}
	printf("memshim ab --in-process: A = %s, B = %s, in %u run%s of %s\n", a->settings[0].label,
	       a->settings[1].label, count, count == 1 ? "" : "s", a->command[0]);
	printf("  CPU: %s family %u model %u; %.2f s wall, %.2f s CPU, %u process%s\n", f->vendor, f->family, f->model,
	       wall, cpu, processes, processes == 1 ? "" : "es");
	printf("  each thread's calls alternate between A and B in blocks of up to %llu calls (blocks\n"
	       "  double as pairs fill the store), A or B first in each pair at random; every call timed\n"
	       "  (the timer's cost off); %zu pairs of blocks; %llu calls left out as interrupted\n",
	       (unsigned long long)block, pairs, (unsigned long long)dropped);
	printf("  B/A: a size class's, the median over the pairs that called it in both arms of B's\n"
	       "  time per call against A's, and its 95%% interval; a function's (\"all\"), its classes\n"
	       "  weighed by A's time (each class's share of A's ns in the run), its 95%% interval from\n"
	       "  %d resamples of the pairs; the first line, every function's classes so%s\n", AB_WEIGHED_RESAMPLES,
	       count > 1 ? ";\n  over the runs, the median of theirs, from the least to the greatest end of their\n"
			   "  intervals" : "");
	printf("  verdict, B against A, by ab's one rule: %s;\n  none from fewer than %d pairs\n",
	       PAIRED_RULE_TEXT, MIN_PAIRS);
	printf("  It measures each call's fenced latency with both settings in one process, so drift\n"
	       "  between runs and where a process's buffers lie are out of it; but the arms share the\n"
	       "  caches and branch predictors, and each setting's time beside the other is not its\n"
	       "  time alone, which can move a class's ratio either way (--impl A,A shows a setting\n"
	       "  alone).  Prefer it for a difference under 1%% of the program's time; ab --runs N\n"
	       "  --timing times each setting alone, in its own processes, with run-to-run drift; the\n"
	       "  program's own time (--runs: wall, cpu) is what a setting must win in the end\n");
}

/* Why a run gave no table, said; true if it did give one. */
static bool has_pairs(const struct dump *d)
{
	uint64_t calls = 0;
	if (d->ab.pair_count)
		return true;
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			calls += d->hist.fn[fn].calls[b];
	fprintf(stderr, "memshim ab: no pair of blocks was completed: the command made %llu calls to memcpy, "
			"memmove and memset, and a pair takes twice --block's calls in one thread\n",
		(unsigned long long)calls);
	return false;
}

/* One run into r; false if it gave no pairs (said).  *failed: set when
 * the command failed (said): its pairs still count, ab's status is 1. */
static bool run_and_read(struct ab *a, struct run *r, bool *failed)
{
	hist_dump_init(&r->d);
	struct ab_run once;
	if (!ab_run_command(a, both_arms, a->dump_dir, false, &once)) {
		fprintf(stderr, "memshim ab: cannot start %s: %s\n", a->command[0], strerror(errno));
		return false;
	}
	int status = once.status;
	r->cpu = once.cpu;
	r->wall = once.wall;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "memshim ab: %s ended with %s %d\n", a->command[0],
			WIFEXITED(status) ? "status" : "signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		*failed = true;
	}
	char why[600] = "";
	if (!ab_take_dumps(a->dump_dir, &r->d, why, sizeof why)) {
		fprintf(stderr, "memshim ab: %s\n", why);
		return false;
	}
	return has_pairs(&r->d);
}

/* The runs, their table, and with csv (not NULL) --csv's lines: the exit
 * status. */
static int run_and_report(struct ab *a, struct run *runs, unsigned count, FILE *csv)
{
	char why[4400];
	unsigned done = 0;
	double cpu = 0, wall = 0;
	bool failed = false, read = true;
	if (!ab_profile_open(a->dump_dir, sizeof a->dump_dir, why, sizeof why)) {
		fprintf(stderr, "memshim ab: %s\n", why);
		return 1;
	}
	for (; read && done < count; done++) {
		read = run_and_read(a, &runs[done], &failed);
		cpu += runs[done].cpu, wall += runs[done].wall;
	}
	if (read) {
		struct table t;
		measure_table(runs, count, &t);
		print_header(a, runs, count, cpu, wall);
		print_table(&t, cpu);
		if (csv)
			write_csv(csv, a, &t);
	}
	for (unsigned i = 0; i < done; i++)
		hist_dump_free(&runs[i].d);
	return read && !failed ? 0 : 1;
}

/* --csv's file under a temporary name, as bench writes its own: NULL
 * without --csv, or with *rc 2 after one line if it cannot be written. */
static FILE *open_csv(const struct ab *a, struct output_file *out, int *rc)
{
	*out = (struct output_file){ 0 };
	if (!a->csv)
		return NULL;
	*rc = output_check_names("ab", &a->csv, 1, NULL, 0);
	FILE *f = *rc ? NULL : output_open(out, "ab", a->csv);
	*rc = *rc ? *rc : f ? 0 : CLI_USAGE;
	return f;
}

int ab_in_process(struct ab *a)
{
	static struct run runs[MAX_IN_PROCESS_RUNS];
	unsigned count = a->runs_given ? a->runs : 1;
	struct output_file out;
	int rc = check_settings(a);
	if (!rc && count > MAX_IN_PROCESS_RUNS)
		rc = cli_usage_error("ab", "--in-process: --runs from 1 to %d", MAX_IN_PROCESS_RUNS);
	FILE *csv = rc ? NULL : open_csv(a, &out, &rc);
	if (rc)
		return rc;
	return output_close(&out, "ab", run_and_report(a, runs, count, csv));
}
