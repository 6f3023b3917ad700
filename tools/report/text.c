/* memshim report's text: the share of CPU time and the time per call, the
 * programs, and per function totals, size percentiles by calls and by
 * bytes, size classes, a bar chart, alignment and aliasing tables. */
#include "config.h"

#include "tools/report/report.h"
#include "tools/util/escape.h"

#include "dispatch/config.h"
#include "tools/util/alias_hazard.h"
#include "tools/report/symbolize.h"
#include "tools/util/timing_stats.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bucket holding the p-th percentile of `counts` (calls or bytes). */
static unsigned percentile_bucket(const uint64_t *counts, double p)
{
	uint64_t all = sum_buckets(counts), seen = 0;
	for (unsigned b = 0; b < HIST_BUCKETS; b++) {
		seen += counts[b];
		if (all && (double)seen >= p / 100.0 * (double)all)
			return b;
	}
	return HIST_BUCKETS - 1;
}

static void bar(double percent, int width)
{
	int cells = (int)lround(percent / 100.0 * width);
	for (int i = 0; i < width; i++)
		fputs(i < cells ? "#" : (i == 0 && percent > 0 ? "." : " "), stdout);
}

/* ---- time (MEMSHIM_PROFILE) ---- */

/* "13.8% of CPU time (12.1–15.6%), 5.4 ms, from 54 samples" */
void print_share(const struct cpu_share *c)
{
	printf("%.1f%% of CPU time (%.1f\u2013%.1f%%), %.1f ms, from %" PRIu64 " sample%s", 100 * c->share,
	       100 * c->low, 100 * c->high, ms(c->ns), c->samples, c->samples == 1 ? "" : "s");
}

/* After a function's share: what memshim's recording took on top, or that
 * the share includes it (profiles from before it was counted apart). */
static void print_recording_share(const struct dump_profile *p, enum base_function fn)
{
	struct cpu_share r;
	if (!p->recording_apart) {
		printf(" (memshim's recording included: an older memshim wrote these dumps)");
		return;
	}
	if (profile_share(p, p->recording_samples[fn], p->recording_ns[fn], &r))
		printf("; and %.1f%% more in memshim's recording", 100 * r.share);
	if (p->recording_apart < p->processes)
		printf(" (counted apart in %u of %u processes, included above in the others)", p->recording_apart,
		       p->processes);
}

/* The samples and the CPU time they stand for; apart, the CPU time of the
 * threads the timers did not run in: a thread is sampled from its first
 * call of these functions on (the main thread from the start), so the
 * time of threads before their first call, or with none, is unsampled. */
static void print_sampled_time(const struct dump_profile *p)
{
	double unsampled = (double)p->process_cpu_ns - (double)p->sampled_ns;
	printf("  %" PRIu64 " sample%s over %.1f ms of CPU time in %u profiled process%s", p->samples,
	       p->samples == 1 ? "" : "s", ms((double)p->sampled_ns), p->processes, p->processes == 1 ? "" : "es");
	/* less than a sample's worth apart: the two clocks' rounding */
	if (p->samples && unsampled > (double)p->sampled_ns / (double)p->samples)
		printf(";\n  %.1f ms more in threads before their first call of these functions (or with none),\n"
		       "  not sampled; the shares below are of all %.1f ms", ms(unsampled), ms((double)p->process_cpu_ns));
	printf("\n");
}

void print_time(const struct dump *d)
{
	const struct dump_profile *p = &d->profile;
	struct cpu_share c;
	if (!p->processes || !profile_fn_share(p, FN_MEMCPY, &c)) {
		printf("time: not measured (MEMSHIM_PROFILE=on, or memshim record --profile, measures each function's share)\n");
		return;
	}
	printf("time (MEMSHIM_PROFILE, %" PRIu64 " samples/s asked, %.0f taken", p->rate_hz, profile_rate_taken(p));
	if (profile_rate_taken(p) < 0.9 * (double)p->rate_hz)
		printf(": the kernel's timer tick caps the rate; each sample stands for %.1f ms of CPU on\n"
		       "  average (a sample counts its timer's periods, overruns included: one may stand for several)",
		       ms((double)p->sampled_ns / (double)p->samples));
	printf("):\n");
	print_sampled_time(p);
	for (int fn = 0; fn < FN_COUNT; fn++) {
		profile_fn_share(p, (enum base_function)fn, &c);
		printf("  %s: ", base_function_names[fn]);
		print_share(&c);
		print_recording_share(p, (enum base_function)fn);
		printf("\n");
	}
	if (p->handler_replaced)
		printf("  (%u process%s installed its own handler for the profiling signal: its time is undercounted)\n",
		       p->handler_replaced, p->handler_replaced == 1 ? "" : "es");
}

/* ---- time per call (MEMSHIM_TIMING) ---- */

/* "2.03", "45.1", "4903": ns to about three figures. */
const char *ns_text(double ns, char *buf, size_t size)
{
	snprintf(buf, size, ns < 10 ? "%.2f" : ns < 100 ? "%.1f" : "%.0f", ns);
	return buf;
}

/* "2.03 (2.00–2.06)": ns per call and its 95% interval; "381160 (1 call)"
 * when one timed call gives no interval.  The dash takes 3 bytes. */
static const char *timed_text(const struct timed_ns *t, char *buf, size_t size)
{
	char a[24], b[24], c[24];
	if (t->calls < 2)
		snprintf(buf, size, "%s (1 call)", ns_text(t->mean, a, sizeof a));
	else
		snprintf(buf, size, "%s (%s\u2013%s)", ns_text(t->mean, a, sizeof a), ns_text(t->low, b, sizeof b),
		         ns_text(t->high, c, sizeof c));
	return buf;
}

/* "2.03 ns per call (95%: 2.00–2.06)" */
static void print_timed(const struct timed_ns *t)
{
	char a[24], b[24], c[24];
	if (t->calls < 2)
		printf("%s ns per call (one timed call)", ns_text(t->mean, a, sizeof a));
	else
		printf("%s ns per call (95%%: %s\u2013%s)", ns_text(t->mean, a, sizeof a), ns_text(t->low, b, sizeof b),
		       ns_text(t->high, c, sizeof c));
}

static const char *hz_source_words(const char *source)
{
	return strcmp(source, "monotonic") == 0 ? "its rate measured against CLOCK_MONOTONIC_RAW"
	       : strcmp(source, "cpuid-0x15") == 0 ? "its rate from CPUID 0x15"
	       : "its rate from CPUID 0x16";
}

void print_timing(const struct dump *d)
{
	const struct dump_timing *t = &d->timing;
	if (!t->processes) {
		printf("time per call: not measured (MEMSHIM_TIMING=on, or memshim record --timing, times one call in %d)\n",
		       TIMING_DEFAULT_EVERY);
		return;
	}
	double timed = 0, dropped = 0;
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (unsigned b = 0; b < HIST_BUCKETS; b++) {
			timed += (double)t->calls[fn][b];
			dropped += (double)t->dropped[fn][b];
		}
	printf("time per call (MEMSHIM_TIMING): one call in %" PRIu64 " timed with the time-stamp counter, %.3f GHz,\n"
	       "  %s; %.0f timed calls in %u process%s; the timer's own cost,\n"
	       "  %.1f ns a timed call, is subtracted\n",
	       t->every, (double)t->tsc_hz / 1e9, hz_source_words(t->hz_source), timed, t->processes,
	       t->processes == 1 ? "" : "es", timing_overhead_ns(t));
	if (dropped)
		printf("  (%.0f more timed call%s left out as interrupted: longer than 2 us + 1 ns a byte)\n", dropped,
		       dropped == 1 ? "" : "s");
	for (int fn = 0; fn < FN_COUNT; fn++) {
		struct timed_ns n;
		if (!timing_fn(t, (enum base_function)fn, &n))
			continue;
		printf("  %s: ", base_function_names[fn]);
		print_timed(&n);
		printf(", %.0f timed; about %.1f ms in all\n", n.calls, ms(timing_total_ns(d, (enum base_function)fn, 0, UINT64_MAX)));
	}
}

/* ---- programs ---- */

/* The name column's width: the longest name shown, so that long names
 * keep the columns in line. */
static int program_width(const struct dump *d, size_t lines)
{
	size_t width = 20;
	for (size_t i = 0; i < d->program_count && i < lines; i++)
		if (strlen(d->programs[i].name) > width)
			width = strlen(d->programs[i].name);
	return (int)width;
}

void print_programs(const struct dump *d, size_t lines)
{
	bool timed = d->profile.processes > 0;
	int width = program_width(d, lines);
	printf("\nby program%s\n  %-*s %9s", lines < d->program_count ? " (the first ones; --by-program: all)" : "",
	       width, "program", "processes");
	for (int fn = 0; fn < FN_COUNT; fn++)
		printf(" %12s %10s%s", base_function_names[fn], "bytes", timed ? "    cpu%" : "");
	printf("\n");
	for (size_t i = 0; i < d->program_count && i < lines; i++) {
		const struct dump *p = d->programs[i].d;
		char b[32];
		printf("  ");
		write_escaped(stdout, d->programs[i].name, ESCAPE_TEXT);
		printf("%*s %9u", width - (int)strlen(d->programs[i].name), "", p->processes);
		for (int fn = 0; fn < FN_COUNT; fn++) {
			struct cpu_share c;
			printf(" %12" PRIu64 " %10s", fn_calls(p, fn), human_size(fn_bytes(p, fn), b, sizeof b));
			if (timed && profile_fn_share(&p->profile, (enum base_function)fn, &c))
				printf(" %6.1f%%", 100 * c.share);
			else if (timed)
				printf(" %7s", "-");
		}
		printf("\n");
	}
}

/* ---- the text report ---- */

static void print_percentiles(const struct function_histogram *f)
{
	static const double ps[] = { 50, 90, 99 };
	char buf[40];
	printf("  size percentiles (each the lower edge of its bucket; buckets are 1/8 of a power of two)\n");
	printf("                 p50          p90          p99\n");
	printf("    by calls ");
	for (int i = 0; i < 3; i++)
		printf(" %-12s", human_size(hist_bucket_lo(percentile_bucket(f->calls, ps[i])), buf, sizeof buf));
	printf("\n    by bytes ");
	for (int i = 0; i < 3; i++)
		printf(" %-12s", human_size(hist_bucket_lo(percentile_bucket(f->bytes, ps[i])), buf, sizeof buf));
	printf("\n");
}


void sum_classes(const struct dump *d, int fn, struct class_sums *s)
{
	sum_by_class(d->hist.fn[fn].calls, s->calls);
	sum_by_class(d->hist.fn[fn].bytes, s->bytes);
	sum_by_class(d->profile.bucket_samples[fn], s->samples);
	sum_by_class(d->profile.bucket_ns[fn], s->ns);
}

static void print_classes(const struct dump *d, int fn, uint64_t calls, uint64_t bytes)
{
	const struct dump_profile *p = &d->profile;
	struct class_sums sums;
	sum_classes(d, fn, &sums);
	bool timed = p->processes > 0, per_call = d->timing.processes > 0;
	printf("  size class       calls%%  bytes%%%s%s  calls%%                bytes%%\n",
	       timed ? "  cpu%      ms" : "", per_call ? "  ns per call (95%)     " : "");
	for (unsigned c = 0; c < size_class_count; c++) {
		struct cpu_share t;
		struct timed_ns n;
		if (!sums.calls[c] && !sums.samples[c])
			continue;
		printf("    %-13s %6.1f%% %6.1f%%", size_classes[c].name, share(sums.calls[c], calls), share(sums.bytes[c], bytes));
		if (timed && profile_share(p, sums.samples[c], sums.ns[c], &t))
			printf(" %5.1f%% %7.2f", 100 * t.share, ms(t.ns));
		else if (timed && per_call)
			printf(" %14s", "");
		if (per_call && timing_range(&d->timing, (enum base_function)fn, size_classes[c].lo, size_classes[c].hi, &n)) {
			char text[80];
			timed_text(&n, text, sizeof text);
			printf(n.calls < 2 ? "  %-22s" : "  %-24s", text); /* the dash is 3 bytes, 1 column */
		} else if (per_call)
			printf("  %-22s", "-");
		printf("  ");
		bar(share(sums.calls[c], calls), 20);
		printf("  ");
		bar(share(sums.bytes[c], bytes), 20);
		printf("\n");
	}
}

/* The chart's line of a bucket: its power of two (size 0 alone on line -1). */
static int chart_line(unsigned b)
{
	uint64_t lo = hist_bucket_lo(b);
	return lo ? 63 - __builtin_clzll(lo) : -1;
}

/* One line per power of two: the finer chart under the size classes. */
static void print_chart(const struct function_histogram *f, uint64_t calls, uint64_t bytes)
{
	printf("  by power of two (hi excluded)    calls                   bytes\n");
	for (unsigned b = 0, end; b < HIST_BUCKETS; b = end) {
		uint64_t c = 0, y = 0;
		for (end = b; end < HIST_BUCKETS && chart_line(end) == chart_line(b); end++) {
			c += f->calls[end];
			y += f->bytes[end];
		}
		if (!c)
			continue;
		char l[16], h[16], range[40];
		if (hist_bucket_hi(end - 1) - hist_bucket_lo(b) == 1)
			snprintf(range, sizeof range, "%s", human_size(hist_bucket_lo(b), l, sizeof l));
		else
			snprintf(range, sizeof range, "%s-%s", human_size(hist_bucket_lo(b), l, sizeof l),
			         human_size(hist_bucket_hi(end - 1), h, sizeof h));
		printf("    %-16s ", range);
		bar(share(c, calls), 20);
		printf(" %5.1f%%  ", share(c, calls));
		bar(share(y, bytes), 20);
		printf(" %5.1f%%\n", share(y, bytes));
	}
}

/* The most common offsets in a mod-64 table. */
/* A share of the calls sampled for alignment: exact where every call was
 * (dumps before version 9), else with its 95% interval (Wilson's). */
static const char *sampled_share(uint64_t k, uint64_t sampled, uint64_t calls, char *buf, size_t size)
{
	double p = sampled ? (double)k / (double)sampled : 0, m = (double)sampled, z = 1.96;
	if (sampled >= calls) {
		snprintf(buf, size, "%.1f%%", 100 * p);
		return buf;
	}
	double centre = (p + z * z / (2 * m)) / (1 + z * z / m);
	double half = z * sqrt(p * (1 - p) / m + z * z / (4 * m * m)) / (1 + z * z / m);
	snprintf(buf, size, "%.1f%% (%.1f..%.1f)", 100 * p, fmax(0, 100 * (centre - half)), fmin(100, 100 * (centre + half)));
	return buf;
}

/* Alignment, counted since dump version 9 for one call in HIST_ALIGN_EVERY
 * of each size bucket and entry point (preload/record.c): shares of the
 * calls sampled, which the line says when they are not all. */
static void print_mod64(const char *title, const uint64_t *table, uint64_t calls)
{
	unsigned order[64];
	uint64_t sampled = sum_mod64(table), aligned8 = 0;
	for (unsigned i = 0; i < 64; i++) {
		order[i] = i;
		aligned8 += i % 8 ? 0 : table[i];
	}
	if (sampled == 0) {
		printf("  %s: no call sampled (one in %d of each size is)\n", title, HIST_ALIGN_EVERY);
		return;
	}
	for (unsigned i = 0; i < 64; i++)
		for (unsigned j = i + 1; j < 64; j++)
			if (table[order[j]] > table[order[i]]) {
				unsigned t = order[i];
				order[i] = order[j];
				order[j] = t;
			}
	char of64[48], of8[48];
	printf("  %s: multiple of 64 %s, of 8 %s; top:", title, sampled_share(table[0], sampled, calls, of64, sizeof of64),
	       sampled_share(aligned8, sampled, calls, of8, sizeof of8));
	for (unsigned i = 0; i < 6 && table[order[i]]; i++)
		printf(" %u (%.1f%%)", order[i], share(table[order[i]], sampled));
	if (sampled < calls)
		printf("; estimated from %" PRIu64 " call%s sampled (95%%)", sampled, sampled == 1 ? "" : "s");
	printf("\n");
}

/* 4 KiB aliasing, counted since dump version 9 in the copies from 2 KiB,
 * where rep movsb can be slow (what it costs is said at the top, by
 * print_hazards); earlier dumps counted every copy. */
static void print_alias(const struct function_histogram *f, uint64_t calls, uint64_t bytes)
{
	const char *of = "";
	uint64_t large_calls = sum_buckets_from(f->calls, HIST_ALIAS_LARGE);
	/* a dump of version 9 on: no aliasing counted below 2 KiB */
	if (f->alias_near_calls == f->alias_near_large_calls && !f->alias_unsplit_calls &&
	    f->alias_same_calls + f->alias_near_calls <= large_calls) {
		calls = large_calls;
		bytes = sum_buckets_from(f->bytes, HIST_ALIAS_LARGE);
		of = " in the copies from 2 KiB";
	}
	printf("  4 KiB aliasing%s, (dst - src) mod 4096: 0 in %.2f%% of calls, %.2f%% of bytes; 1..%d in %.2f%% of "
	       "calls, %.2f%% of bytes\n",
	       of, share(f->alias_same_calls, calls), share(f->alias_same_bytes, bytes), HIST_ALIAS_WINDOW - 1,
	       share(f->alias_near_calls, calls), share(f->alias_near_bytes, bytes));
	if (f->alias_unsplit_calls)
		printf("    and below %d, from dumps before version 4 (not told apart): %.2f%% of calls, %.2f%% of bytes\n",
		       HIST_ALIAS_WINDOW, share(f->alias_unsplit_calls, calls), share(f->alias_unsplit_bytes, bytes));
}

/* ---- the hazard, at the top ---- */

double hazard_share(const struct dump *d, enum base_function fn, const char *list)
{
	const struct function_histogram *f = &d->hist.fn[fn];
	double time = recorded_ns(d, fn), bytes = (double)sum_buckets(f->bytes);
	if (list && !alias_hazard_measured(list))
		return 0;
	if (list && time > 0)
		return alias_hazard_ns(f, list, "glibc") / time;
	return bytes > 0 ? (double)f->alias_near_large_bytes / bytes : 0;
}

/* Its cost under glibc, what share of fn's timed time that is, and what avoids it. */
static void print_hazard_cost(const struct dump *d, enum base_function fn, const struct cpu_row *row)
{
	const char *list = row->alias4k[fn], *why;
	char cost[32], remedy[200];
	struct band_list bands;
	struct timed_ns large;
	double ns = alias_hazard_ns(&d->hist.fn[fn], list, "glibc");
	printf("    under glibc on this CPU about %s more (%.3f ns a byte, row %s)", human_duration(ns, cost, sizeof cost),
	       alias_extra_ns(list, "glibc"), row->file);
	/* a share only of a run that paid it: under another variant the time
	 * timed is not glibc's, and the extra may exceed it all */
	bool ran_glibc = strcmp(d->variant[fn], "glibc") == 0;
	double timed = timing_range(&d->timing, fn, HIST_ALIAS_LARGE, UINT64_MAX, &large)
			       ? timing_total_ns(d, fn, 0, UINT64_MAX) : 0;
	if (timed > 0 && ran_glibc)
		printf(", %.0f%% of %s's timed time", 100 * ns / timed, base_function_names[fn]);
	else if (timed > 0)
		printf(", %.1fx all of %s's timed time under %s here", ns / timed, base_function_names[fn],
		       d->variant[fn][0] ? d->variant[fn] : "?");
	config_default_bands(fn, &bands, &why);
	printf(";\n    %s\n", alias_hazard_remedy(fn, list, &bands, remedy, sizeof remedy));
}

/* fn's hazard, when it takes more than 1% of what hazard_share weighs it by. */
static bool print_hazard(const struct dump *d, enum base_function fn, const struct cpu_row *row, bool said)
{
	const struct function_histogram *f = &d->hist.fn[fn];
	const char *list = row ? row->alias4k[fn] : NULL;
	double part = hazard_share(d, fn, list);
	char size[32];
	if (part <= ALIAS_HAZARD_NOTICEABLE)
		return false;
	if (!said)
		printf("4 KiB-aliasing hazard: copies from 2 KiB with (dst - src) mod 4096 in 1..63, where rep movsb\n"
		       "can run several times slower (glibc copies with it from about 2 KiB):\n");
	printf("  %s: %" PRIu64 " calls, %s (%.0f%% of its bytes)\n", base_function_names[fn], f->alias_near_large_calls,
	       human_size(f->alias_near_large_bytes, size, sizeof size),
	       share(f->alias_near_large_bytes, sum_buckets(f->bytes)));
	if (list)
		print_hazard_cost(d, fn, row);
	else
		printf("    not measured on this CPU (%s): %s measures it\n", row ? "its row has no alias4k line" : "no CPU row",
		       ALIAS_HAZARD_MEASURE);
	return true;
}

void print_hazards(const struct dump *d)
{
	const struct cpu_row *row = alias_hazard_row();
	bool said = false;
	for (int fn = 0; fn < FN_COUNT; fn++)
		if (fn != FN_MEMSET)
			said |= print_hazard(d, (enum base_function)fn, row, said);
}

/* Where the profile's time in fn and the timed calls' total differ beyond
 * both intervals, a note of why they may: they measure different things.
 * Timed above the profile: small calls whose data is out of the caches
 * (zstd -d's tiny memmoves, D39). */
static void print_time_measures(const struct dump *d, enum base_function fn, const struct cpu_share *c)
{
	double low, high;
	timing_total_interval(d, fn, &low, &high);
	if (!(c->low_ns > high || c->high_ns < low))
		return;
	printf("  (the two differ beyond their intervals, profile %.1f\u2013%.1f ms, timed %.1f\u2013%.1f ms: ",
	       ms(c->low_ns), ms(c->high_ns), ms(low), ms(high));
	if (c->low_ns > high)
		printf("the profile\n"
		       "   holds all of each call's CPU time, page faults inside it included, where the timed calls leave\n"
		       "   out those interrupted and time one call in %" PRIu64 " alone, fenced)\n", d->timing.every);
	else
		printf("a timed call\n"
		       "   runs alone, fenced, so it pays the whole latency of its data's cache misses, which in the\n"
		       "   program overlap the work around the call; bench --replay's cold column, on a recording with\n"
		       "   --sequences, times the same calls with their data out of the caches)\n");
}

void print_function(const struct dump *d, int fn)
{
	const struct function_histogram *f = &d->hist.fn[fn];
	uint64_t calls = sum_buckets(f->calls), bytes = sum_buckets(f->bytes);
	char b1[32], b2[32];
	printf("\n%s: %" PRIu64 " calls, %s", base_function_names[fn], calls, human_size(bytes, b1, sizeof b1));
	if (calls)
		printf(" (mean %s)", human_size(bytes / calls, b2, sizeof b2));
	printf(", variant ");
	write_escaped(stdout, d->variant[fn][0] ? d->variant[fn] : "?", ESCAPE_TEXT);
	printf("\n");
	struct cpu_share c;
	struct timed_ns n;
	if (d->profile.processes && profile_fn_share(&d->profile, (enum base_function)fn, &c)) {
		printf("  time: ");
		print_share(&c);
		print_recording_share(&d->profile, (enum base_function)fn);
		printf("\n");
	}
	if (timing_fn(&d->timing, (enum base_function)fn, &n)) {
		printf("  time: ");
		print_timed(&n);
		printf(", %.0f timed; about %.1f ms in all\n", n.calls,
		       ms(timing_total_ns(d, (enum base_function)fn, 0, UINT64_MAX)));
		if (d->profile.processes && profile_fn_share(&d->profile, (enum base_function)fn, &c))
			print_time_measures(d, (enum base_function)fn, &c);
	}
	if (!calls)
		return;
	printf("  by name:");
	for (int e = 0; e < E_COUNT; e++)
		if ((int)entry_point_base[e] == fn && d->hist.entry_calls[e])
			printf(" %s %.1f%%", entry_point_names[e], share(d->hist.entry_calls[e], calls));
	printf("\n");
	print_percentiles(f);
	print_classes(d, fn, calls, bytes);
	print_chart(f, calls, bytes);
	print_mod64("destination mod 64", f->dst_mod64, calls);
	if (fn != FN_MEMSET) {
		print_mod64("(dst - src) mod 64", f->delta_mod64, calls);
		print_alias(f, calls, bytes);
	}
	if (fn == FN_MEMMOVE)
		printf("  overlapping: %.2f%% with destination before source, %.2f%% after\n",
		       share(f->overlap_dst_before, calls), share(f->overlap_dst_after, calls));
	if (fn == FN_MEMSET)
		printf("  value 0: %.1f%% of calls, %.1f%% of bytes\n", share(f->zero_calls, calls),
		       share(f->zero_bytes, bytes));
}
