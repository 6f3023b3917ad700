/* memshim ab's table: per setting the median and min..max of each measure,
 * and the ratio to the first setting. */
#include "config.h"

#include "tools/ab/ab.h"

#include "tools/util/units_shares.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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
	struct summary s = ab_summarise(a, setting, m);
	char text[96];
	double ratio;
	snprintf(text, sizeof text, format, s.median, s.min, s.max);
	if (ab_comparable(a, setting, base, m) && geometric_ratio(a, setting, base, m, &ratio))
		printf(" %-27s %6.3f", text, ratio);
	else
		printf(" %-27s %6s", ab_inside(m) && !ab_has_fn_time(a, setting, m) ? "-" : text, "-");
}

/* The baseline of in-function measure m for the table: the first setting that has it. */
static unsigned table_base(const struct ab *a, enum measure m)
{
	int base = ab_fn_baseline(a, m);
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

void ab_print_table(const struct ab *a)
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

/* What the recording cost the library's settings, as the runs' profiles
 * measured it (their samples inside memshim's recording, per call). */
static const char *recording_text(const struct ab *a, char *text, size_t size)
{
	if (!a->recording_runs)
		snprintf(text, size, "the recording's cost\n  (not measured: no run had a profile inside the functions)");
	else
		snprintf(text, size, "the recording's\n  cost, measured in these runs' profiles: %.1f ns per call (the mean over %u runs), which\n"
			 "  none and tunables settings don't pay", a->recording_ns / a->recording_runs, a->recording_runs);
	return text;
}

void ab_print_header(const struct ab *a)
{
	char cost[300];
	printf("memshim ab: %u runs of each of %u settings, interleaved\n", a->runs, a->count);
	printf("  wall: clock_gettime(CLOCK_MONOTONIC) from the start signal to wait4; cpu: user+system\n"
	       "  from wait4's rusage (the command and its children); cycles, instructions: %s\n",
	       a->counters ? "perf_event_open, user space, inherited by the command's children" : a->counter_note);
	if (a->profile)
		printf("  in-function: CPU ns inside memcpy, memmove and memset over their calls, from the\n"
		       "  runs' dumps (MEMSHIM_PROFILE=%s MEMSHIM_DUMP): the copies alone, memshim's recording\n"
		       "  left out; the library's settings record, so their wall and cpu include %s\n",
		       a->profile, recording_text(a, cost, sizeof cost));
	if (a->timing)
		printf("  timed: ns per call inside the three functions from the calls the library timed with the\n"
		       "  time-stamp counter (MEMSHIM_TIMING=%s), each size class's mean weighted by its calls;\n"
		       "  a timed call runs alone, so small copies take longer timed than in a stream of them;\n"
		       "  each setting in runs of its own, so a ratio holds the drift between runs and what is\n"
		       "  fixed for a process's life (where its buffers lie: 4 KiB aliasing), and its interval\n"
		       "  counts runs: wide with few.  It times each setting alone, as the program would run\n"
		       "  it; for a difference under 1%% of the program's time, ab --in-process, which sets both\n"
		       "  settings against each other inside one process (each beside the other)\n",
		       a->timing);
	int fn_base = ab_fn_baseline(a, a->timing ? M_TIMED : M_FN);
	printf("  each cell: median (min..max) over the runs; ratio, here and in the verdicts: each run\n"
	       "  over the same round's run of %s", a->settings[0].label);
	if ((a->profile || a->timing) && fn_base > 0)
		printf(" (in-function: of %s, the first setting run under\n  the library)", a->settings[fn_base].label);
	printf(", the geometric mean of those ratios\n");
}
