/* memshim report's first lines, its bottom line: the share of CPU time in
 * memcpy, memmove and memset together with its interval, what memshim's
 * recording added, any hazard and what it costs, and where the time goes,
 * with whether a setting here can win more than the recording resolves.
 * A user reads these before the tables, so they add nothing up by hand. */
#include "config.h"

#include "tools/report/report.h"

#include "tools/util/alias_hazard.h"
#include "tools/util/paired_stats.h"
#include "tools/util/timing_stats.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Size classes named in "where the time goes": at most this many, each
 * after the first holding at least WHERE_LEAST of the three's time. */
#define WHERE_CLASSES 2
#define WHERE_LEAST 0.1

/* The three functions' samples and ns together, into *c; false without a profile. */
static bool total_share(const struct dump_profile *p, const uint64_t *samples, const uint64_t *ns, struct cpu_share *c)
{
	uint64_t s = 0, n = 0;
	for (int fn = 0; fn < FN_COUNT; fn++)
		s += samples[fn], n += ns[fn];
	return p->processes && profile_share(p, s, n, c);
}

/* What the recording added, apart from the share above. */
static void print_recording_cost(const struct dump_profile *p)
{
	struct cpu_share r;
	if (!p->recording_apart)
		printf("  memshim's recording: included in that share (an older memshim wrote these dumps)\n");
	else if (total_share(p, p->recording_samples, p->recording_ns, &r))
		printf("  memshim's recording added %.1f%% of CPU time (%.1f\u2013%.1f%%) on top, not in that share%s\n",
		       100 * r.share, 100 * r.low, 100 * r.high,
		       p->recording_apart < p->processes ? " (in it for processes of an older memshim)" : "");
}

/* The hazards above ALIAS_HAZARD_NOTICEABLE in one line, with their cost
 * under glibc where the row measured it; the block below has the rest. */
static void print_hazard_summary(const struct dump *d)
{
	const struct cpu_row *row = alias_hazard_row();
	const char *list;
	bool said = false;
	for (int fn = 0; fn < FN_COUNT; fn++) {
		list = row ? row->alias4k[fn] : NULL;
		if (fn == FN_MEMSET || hazard_share(d, (enum base_function)fn, list) <= ALIAS_HAZARD_NOTICEABLE)
			continue;
		printf("%s %s's 4 KiB aliasing", said ? ";" : "  hazard:", base_function_names[fn]);
		double ns = list ? alias_hazard_ns(&d->hist.fn[fn], list, "glibc") : 0;
		if (ns > 0 && d->profile.process_cpu_ns)
			printf(", %.1f ms more under glibc on this CPU (%.1f%% of CPU time)", ms(ns),
			       100 * ns / (double)d->profile.process_cpu_ns);
		else if (ns > 0)
			printf(", %.1f ms more under glibc on this CPU", ms(ns));
		else
			printf(", its cost not measured on this CPU");
		said = true;
	}
	printf(said ? " (below)\n" : "  hazard: none that takes 1%% of a function's time\n");
}

/* The size class of function fn's with the most CPU time not yet in
 * `taken` (a bit per function and class), or false. */
static bool next_class(const struct dump *d, uint64_t taken[FN_COUNT], int *fn, unsigned *c, uint64_t *ns)
{
	*ns = 0;
	for (int f = 0; f < FN_COUNT; f++) {
		struct class_sums s;
		sum_classes(d, f, &s);
		for (unsigned k = 0; k < size_class_count; k++)
			if (!(taken[f] >> k & 1) && s.ns[k] > *ns)
				*fn = f, *c = k, *ns = s.ns[k];
	}
	if (*ns)
		taken[*fn] |= 1ull << *c;
	return *ns > 0;
}

/* "memcpy at 32-256 KiB (5.2% of CPU time), memmove at 1-4 KiB (1.0%)" */
static void print_where(const struct dump *d, const struct cpu_share *total)
{
	uint64_t taken[FN_COUNT] = { 0 }, ns;
	int fn;
	unsigned c;
	for (unsigned i = 0; i < WHERE_CLASSES && next_class(d, taken, &fn, &c, &ns); i++)
		if (i == 0 || (double)ns >= WHERE_LEAST * total->ns)
				printf("%s%s at %s (%.1f%%%s)", i ? ", " : "", base_function_names[fn], size_classes[c].name,
			       100 * (double)ns / (double)d->profile.process_cpu_ns, i ? "" : " of CPU time");
}

/* The sentence: where the time goes, and how much of the functions' time a
 * setting must save to show in a recording like this one (its interval's
 * half-width against the share); under PAIRED_RESOLUTION of the time in
 * all, nothing a setting wins is more than ab's runs resolve. */
static void print_verdict(const struct dump *d, const struct cpu_share *c)
{
	double half = (c->high - c->low) / 2;
	if (c->high < PAIRED_RESOLUTION) {
		printf("  nothing to gain here: the three take under %.0f%% of CPU time, so no setting can win more\n"
		       "  than that, less than ab's runs resolve of the program's time\n", 100 * PAIRED_RESOLUTION);
		return;
	}
	if (c->samples == 0 || half >= c->share) {
		printf("  their time is not resolved: from %llu sample%s, at most %.1f%% of CPU time; a longer run\n"
		       "  (more samples) tells\n", (unsigned long long)c->samples, c->samples == 1 ? "" : "s", 100 * c->high);
		return;
	}
	printf("  where the time goes: ");
	print_where(d, c);
	printf(";\n  a setting must cut the three's time by %.0f%% or more to show in a recording like this one\n"
	       "  (+-%.1f points); memshim tune predicts what this machine's variants win, ab --in-process\n"
	       "  proves a smaller gain\n", ceil(100 * half / c->share), 100 * half);
}

void print_bottom_line(const struct dump *d)
{
	const struct dump_profile *p = &d->profile;
	struct cpu_share c;
	if (!total_share(p, p->fn_samples, p->fn_ns, &c)) {
		printf("bottom line: not measured: the share of CPU time in memcpy, memmove and memset needs a profile\n"
		       "  (memshim record --profile, or MEMSHIM_PROFILE=on)\n");
		print_hazard_summary(d);
		printf("\n");
		return;
	}
	printf("bottom line: memcpy, memmove and memset together took ");
	print_share(&c);
	printf("\n");
	print_recording_cost(p);
	print_hazard_summary(d);
	print_verdict(d, &c);
	printf("\n");
}
