/* memshim ab's verdicts: each setting against the first, paired by round
 * (tools/util/paired_stats.h), and when --runs auto stops. */
#include "config.h"

#include "tools/ab/ab.h"

#include "tools/util/units_shares.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

static void print_verdict(const struct ab *a, unsigned i, unsigned base, enum measure m, const char *what)
{
	static const char *const unit[M_COUNT] = { [M_WALL] = "wall", [M_CPU] = "cpu", [M_FN] = "in-function",
						   [M_TIMED] = "in-function (timed)" };
	struct paired_ratio r;
	char text[200];
	if (!ab_inside(m) && ab_too_short(a, i, M_WALL)) {
		if (m == M_WALL)
			printf("  %s: too short to time: %.1f ms per run; give it more work\n", a->settings[i].label,
			       1e3 * ab_summarise(a, i, m).min);
	} else if (m == M_CPU && ab_too_short(a, i, m))
		printf("  %s: cpu: too little CPU time to time: %.1f ms per run\n", a->settings[i].label,
		       1e3 * ab_summarise(a, i, m).min);
	else if (i == base)
		return;
	else if (!ab_compare(a, i, base, m, &r))
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
		if (i == base || !ab_every_run(a, class_series(a, i, c)) || !ab_every_run(a, class_series(a, base, c)) ||
		    !paired_compare(class_series(a, i, c), class_series(a, base, c), a->runs, a->level, &r))
			continue;
		struct paired_verdict v = paired_judge(&r);
		paired_verdict_text(&r, &v, text, sizeof text);
		/* few timed calls a run: a class's mean rests on a sample, which
		 * the interval counts only through the runs' spread */
		double fewest = fmin(a->class_timed_calls[i][c], a->class_timed_calls[base][c]) / a->runs;
		printf("    %-13s %.3f (%.3f..%.3f): %s; %.0f timed calls a run\n", size_classes[c].name, r.ratio, r.low,
		       r.high, text, fewest);
	}
}

static bool unresolved(const struct ab *a, unsigned i, unsigned base, enum measure m)
{
	struct paired_ratio r;
	return i != base && ab_compare(a, i, base, m, &r) && paired_judge(&r).kind == PAIRED_UNRESOLVED;
}

/* Whether any verdict print_verdicts gives is "not resolved". */
static bool any_unresolved(const struct ab *a)
{
	int fn_base = ab_fn_baseline(a, M_FN), timed_base = ab_fn_baseline(a, M_TIMED);
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
	int base = ab_fn_baseline(a, m);
	if (!ab_has_fn_time(a, i, m))
		print_no_fn_time(a, i, m);
	else
		print_verdict(a, i, (unsigned)base, m, " per call");
	if (m == M_TIMED && ab_has_fn_time(a, i, m))
		print_class_verdicts(a, i, (unsigned)base);
}

/* The verdicts' legend: the interval, the rule, and an unresolved one's runs. */
static void print_verdict_legend(const struct ab *a)
{
	printf("\nVerdicts: the ratio of the table and its interval (Student t on the logarithms of the per-round\n"
	       "ratios), by ab's one rule:\n  %s.\n", PAIRED_RULE_TEXT);
	if (a->auto_runs)
		printf("The interval is %.4g%%, not 95%%: --runs auto looked after each round and stopped at the first that\n"
		       "resolved, so each look is stricter, to keep a 5%% chance in all of a verdict where there is no\n"
		       "difference.\n", 100 * a->level);
	else
		printf("The interval is 95%%.\n");
	if (any_unresolved(a))
		printf("Not resolved: the runs that would narrow the interval to the difference seen (at least 1%%),\n"
		       "at the spread seen.\n");
}

void ab_print_verdicts(const struct ab *a)
{
	print_verdict_legend(a);
	printf("Wall time against %s:\n", a->settings[0].label);
	for (unsigned i = 0; i < a->count; i++)
		print_verdict(a, i, 0, M_WALL, "");
	printf("CPU time (user+system) against %s:\n", a->settings[0].label);
	for (unsigned i = 0; i < a->count; i++)
		print_verdict(a, i, 0, M_CPU, "");
	for (enum measure m = M_FN; m <= M_TIMED; m++) {
		if (!(m == M_FN ? a->profile : a->timing))
			continue;
		int fn_base = ab_fn_baseline(a, m);
		const char *what = m == M_FN ? "In-function time per call"
					     : "Timed time per call, overall then by size class (with the timed calls a run\n"
					       "its figure rests on, the fewer of the two settings')";
		if (fn_base >= 0)
			printf("%s against %s%s:\n", what, a->settings[fn_base].label,
			       fn_base > 0 ? ", the first setting run under the library" : "");
		else
			printf("%s:\n", what);
		for (unsigned i = 0; i < a->count; i++)
			print_fn_verdict(a, i, m);
	}
}

int ab_report_failures(const struct ab *a)
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
		int fn_base = ab_fn_baseline(a, in_function[k]);
		if (fn_base >= 0 && (int)i != fn_base && ab_has_fn_time(a, i, in_function[k])) {
			*base = (unsigned)fn_base;
			return in_function[k];
		}
	}
	return ab_too_short(a, i, M_CPU) || ab_too_short(a, 0, M_CPU) ? M_WALL : M_CPU;
}

double ab_resolvable(const struct ab *a, unsigned rounds, const char **measure)
{
	static const char *const names[M_COUNT] = { [M_WALL] = "wall", [M_CPU] = "cpu", [M_FN] = "in-function",
						    [M_TIMED] = "in-function (timed)" };
	double worst = 0;
	for (unsigned i = 1; i < a->count; i++) {
		unsigned base;
		enum measure m = deciding(a, i, &base);
		struct paired_ratio r;
		if (ab_too_short(a, i, M_WALL) || !ab_compare(a, i, base, m, &r))
			continue;
		double d = paired_resolvable(&r, rounds, paired_auto_level(rounds));
		if (d > worst) {
			worst = d;
			*measure = names[m];
		}
	}
	return worst;
}

unsigned ab_last_look(const struct ab *a, double elapsed)
{
	return paired_auto_last_look(a->runs, elapsed, a->budget_s, MAX_RUNS);
}

/* NULL while more rounds are worth running, else why not. */
const char *ab_stop_reason(const struct ab *a, double elapsed, unsigned next)
{
	if (ab_too_short(a, 0, M_WALL))
		return "the runs are too short to time";
	bool settled = true;
	for (unsigned i = 1; i < a->count && settled; i++) {
		unsigned base;
		if (ab_too_short(a, i, M_WALL)) /* more rounds won't give it a ratio */
			continue;
		enum measure m = deciding(a, i, &base);
		struct paired_ratio r;
		settled = ab_compare(a, i, base, m, &r) && paired_judge(&r).kind != PAIRED_UNRESOLVED;
	}
	if (settled)
		return "every verdict is resolved";
	if (paired_auto_overruns(next, a->runs, elapsed, a->budget_s))
		return "the rounds to the next look would overrun the budget (--budget)";
	return a->runs == MAX_RUNS ? "the most runs ab keeps" : NULL;
}
