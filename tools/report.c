/* memshim report: merges any number of histogram dumps and shows where a
 * program's copy time goes: the share of CPU time first (with a profile),
 * then totals, size percentiles by calls and by bytes, size classes, a bar
 * chart, alignment and aliasing tables, programs, call sites; or the same as
 * JSON, folded stacks, an SVG plot (tools/report_svg.c), or fleetbench's
 * distribution format. */
#include "tools/report.h"

#include "dispatch/config.h"
#include "preload/histogram_format.h"
#include "tools/alias_hazard.h"
#include "tools/cli.h"
#include "tools/cli_options.h"
#include "tools/dump_load.h"
#include "tools/profile_stats.h"
#include "tools/report_parts.h"
#include "tools/report_pprof.h"
#include "tools/symbolize.h"
#include "tools/timing_stats.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char report_help[] =
	"usage: memshim report [OPTIONS] FILE|DIR...\n"
	"Merges histogram dumps (written with MEMSHIM_HIST=PATH; a directory stands for\n"
	"every dump in it) and prints, first, the share of CPU time in each function\n"
	"when the dumps have a profile (MEMSHIM_PROFILE), and the time per call when\n"
	"they have timed calls (MEMSHIM_TIMING), then per function totals,\n"
	"size percentiles by calls and by bytes, size classes (with their time),\n"
	"a bar chart, alignment and 4 KiB-aliasing tables, and the top call sites by\n"
	"time, bytes and calls (named with function and file:line where the objects\n"
	"allow).\n"
	"  --json                 print the merged histogram as JSON instead\n"
	"  --folded               print the sampled call stacks, folded for flamegraph.pl\n"
	"                         and speedscope (root;...;caller;function bytes); they\n"
	"                         need call sites (memshim record --sites)\n"
	"  --by-program           a table of every program in the dumps\n"
	"  --program NAME         only the dumps of program NAME\n"
	"  --svg OUT.svg          also write a plot (log size axis; calls, bytes, time)\n"
	"  --fleetbench-csv PREFIX also write PREFIXMemcpy.csv, PREFIXMemmove.csv and\n"
	"                         PREFIXMemset.csv in fleetbench's size:probability format\n"
	"  --pprof OUT.pb.gz      also write a gzip-compressed pprof profile (pprof,\n"
	"                         Pyroscope, Parca): calls, bytes and CPU time by stack,\n"
	"                         labelled with program, variant and size class\n"
	"  --top N                call sites to show (default 10)\n"
	"A file that cannot be read is named with the reason and left out; the exit\n"
	"status is then 1.\n";

/* ---- numbers for people ---- */

static double share(uint64_t part, uint64_t whole) { return whole ? 100.0 * (double)part / (double)whole : 0; }

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

static double ms(double ns) { return ns / 1e6; }

/* ---- time (MEMSHIM_PROFILE) ---- */

/* "13.8% of CPU time (12.1–15.6%), 5.4 ms" */
static void print_share(const struct cpu_share *c)
{
	printf("%.1f%% of CPU time (%.1f\u2013%.1f%%), %.1f ms", 100 * c->share, 100 * c->low, 100 * c->high,
	       ms(c->ns));
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

static void print_time(const struct dump *d)
{
	const struct dump_profile *p = &d->profile;
	struct cpu_share c;
	if (!p->processes || !profile_fn_share(p, FN_MEMCPY, &c)) {
		printf("time: not measured (MEMSHIM_PROFILE=on, or memshim record --profile, measures each function's share)\n");
		return;
	}
	printf("time (MEMSHIM_PROFILE, %" PRIu64 " samples/s asked, %.0f taken", p->rate_hz, profile_rate_taken(p));
	if (profile_rate_taken(p) < 0.9 * (double)p->rate_hz)
		printf(": the kernel's timer tick caps the rate; each sample stands for %.1f ms of CPU",
		       ms((double)p->sampled_ns / (double)p->samples));
	printf("):\n  %" PRIu64 " samples over %.1f ms of CPU time in %u profiled process%s\n", p->samples,
	       ms((double)p->process_cpu_ns), p->processes, p->processes == 1 ? "" : "es");
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
static const char *ns_text(double ns, char *buf, size_t size)
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

static void print_timing(const struct dump *d)
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

static uint64_t fn_calls(const struct dump *d, int fn) { return sum_buckets(d->hist.fn[fn].calls); }
static uint64_t fn_bytes(const struct dump *d, int fn) { return sum_buckets(d->hist.fn[fn].bytes); }

static void print_programs(const struct dump *d, size_t rows)
{
	bool timed = d->profile.processes > 0;
	printf("\nby program%s\n  %-20s %9s", rows < d->program_count ? " (the first ones; --by-program: all)" : "",
	       "program", "processes");
	for (int fn = 0; fn < FN_COUNT; fn++)
		printf(" %12s %10s%s", base_function_names[fn], "bytes", timed ? "    cpu%" : "");
	printf("\n");
	for (size_t i = 0; i < d->program_count && i < rows; i++) {
		const struct dump *p = d->programs[i].d;
		char b[32];
		printf("  %-20s %9u", d->programs[i].name, p->processes);
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

/* A function's calls, bytes, profile samples and CPU ns, by size class. */
struct class_sums {
	uint64_t calls[16], bytes[16], samples[16], ns[16];
};

static void sum_classes(const struct dump *d, int fn, struct class_sums *s)
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
	printf("  size class      calls%%  bytes%%%s%s  calls%%                bytes%%\n",
	       timed ? "  cpu%      ms" : "", per_call ? "  ns per call (95%)     " : "");
	for (unsigned c = 0; c < size_class_count; c++) {
		struct cpu_share t;
		struct timed_ns n;
		if (!sums.calls[c] && !sums.samples[c])
			continue;
		printf("    %-12s %6.1f%% %6.1f%%", size_classes[c].name, share(sums.calls[c], calls), share(sums.bytes[c], bytes));
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

/* The chart's row of a bucket: its power of two (size 0 alone in row -1). */
static int chart_row(unsigned b)
{
	uint64_t lo = hist_bucket_lo(b);
	return lo ? 63 - __builtin_clzll(lo) : -1;
}

/* One row per power of two: the finer chart under the size classes. */
static void print_chart(const struct function_histogram *f, uint64_t calls, uint64_t bytes)
{
	printf("  by power of two (hi excluded)    calls                   bytes\n");
	for (unsigned b = 0, end; b < HIST_BUCKETS; b = end) {
		uint64_t c = 0, y = 0;
		for (end = b; end < HIST_BUCKETS && chart_row(end) == chart_row(b); end++) {
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
static void print_mod64(const char *title, const uint64_t *table, uint64_t calls)
{
	unsigned order[64];
	for (unsigned i = 0; i < 64; i++)
		order[i] = i;
	for (unsigned i = 0; i < 64; i++)
		for (unsigned j = i + 1; j < 64; j++)
			if (table[order[j]] > table[order[i]]) {
				unsigned t = order[i];
				order[i] = order[j];
				order[j] = t;
			}
	uint64_t aligned8 = 0;
	for (unsigned i = 0; i < 64; i += 8)
		aligned8 += table[i];
	printf("  %s: multiple of 64 %.1f%%, of 8 %.1f%%; top:", title, share(table[0], calls),
	       share(aligned8, calls));
	for (unsigned i = 0; i < 6 && table[order[i]]; i++)
		printf(" %u (%.1f%%)", order[i], share(table[order[i]], calls));
	printf("\n");
}

/* 4 KiB aliasing: distance 0 apart from 1..63, and the rep movsb hazard
 * where this CPU's row measured it. */
static void print_alias(const struct function_histogram *f, enum base_function fn, uint64_t calls, uint64_t bytes)
{
	printf("  4 KiB aliasing, (dst - src) mod 4096: 0 in %.2f%% of calls, %.2f%% of bytes; 1..%d in %.2f%% of "
	       "calls, %.2f%% of bytes\n",
	       share(f->alias_same_calls, calls), share(f->alias_same_bytes, bytes), HIST_ALIAS_WINDOW - 1,
	       share(f->alias_near_calls, calls), share(f->alias_near_bytes, bytes));
	if (f->alias_unsplit_calls)
		printf("    and below %d, from dumps before version 4 (not told apart): %.2f%% of calls, %.2f%% of bytes\n",
		       HIST_ALIAS_WINDOW, share(f->alias_unsplit_calls, calls), share(f->alias_unsplit_bytes, bytes));
	struct band_list bands;
	const char *why;
	config_default_bands(fn, &bands, &why);
	alias_hazard_print(stdout, "    ", f, fn, cpu_row_for(cpu_features()), &bands);
}

static void print_function(const struct dump *d, int fn)
{
	const struct function_histogram *f = &d->hist.fn[fn];
	uint64_t calls = sum_buckets(f->calls), bytes = sum_buckets(f->bytes);
	char b1[32], b2[32];
	printf("\n%s: %" PRIu64 " calls, %s", base_function_names[fn], calls, human_size(bytes, b1, sizeof b1));
	if (calls)
		printf(" (mean %s)", human_size(bytes / calls, b2, sizeof b2));
	printf(", variant %s\n", d->variant[fn][0] ? d->variant[fn] : "?");
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
		print_alias(f, (enum base_function)fn, calls, bytes);
	}
	if (fn == FN_MEMMOVE)
		printf("  overlapping: %.2f%% with destination before source, %.2f%% after\n",
		       share(f->overlap_dst_before, calls), share(f->overlap_dst_after, calls));
	if (fn == FN_MEMSET)
		printf("  value 0: %.1f%% of calls, %.1f%% of bytes\n", share(f->zero_calls, calls),
		       share(f->zero_bytes, bytes));
}

/* ---- call sites ---- */

/* Call sites, the largest amount (bytes, or CPU ns) first, then by function
 * and frames so that the order is the same on every run. */
static int by_amount(const void *a, const void *b)
{
	const struct dump_site *x = a, *y = b;
	if (x->amount != y->amount)
		return x->amount < y->amount ? 1 : -1;
	if (x->fn != y->fn)
		return x->fn < y->fn ? -1 : 1;
	return strcmp(x->frames, y->frames);
}

static int by_calls(const void *a, const void *b)
{
	const struct dump_site *x = a, *y = b;
	return x->calls < y->calls ? 1 : x->calls > y->calls ? -1 : by_amount(a, b);
}

/* The frames of a call site, space-separated in the dump, one by one. */
static const char *next_frame(const char **text, char *buf, size_t size)
{
	const char *s = *text;
	if (!*s)
		return NULL;
	const char *space = strchr(s, ' ');
	size_t len = space ? (size_t)(space - s) : strlen(s);
	snprintf(buf, size, "%.*s", (int)(len < size ? len : size - 1), s);
	*text = space ? space + 1 : s + len;
	return buf;
}

static void print_site_frames(const char *frames)
{
	char raw[1024], readable[1200];
	const char *first = "";
	for (const char *f; (f = next_frame(&frames, raw, sizeof raw)) != NULL;
	     first = "\n                                                         <- ")
		printf("%s%s", first, frame_readable(f, readable, sizeof readable));
	printf("\n");
}

static void print_callsites(struct dump *d, unsigned top)
{
	if (!d->callsite_count || top == 0)
		return;
	uint64_t calls = 0, bytes = 0;
	for (size_t i = 0; i < d->callsite_count; i++) {
		calls += d->callsites[i].calls;
		bytes += d->callsites[i].bytes;
	}
	int (*order[2])(const void *, const void *) = { by_amount, by_calls };
	const char *title[2] = { "bytes", "calls" };
	for (int o = 0; o < 2; o++) {
		qsort(d->callsites, d->callsite_count, sizeof *d->callsites, order[o]);
		printf("\ntop call sites by %s (%" PRIu64 " sampled calls; the caller, then its callers)\n"
		       "  bytes%%  calls%%      calls      bytes  mean size  function\n",
		       title[o], calls);
		for (size_t i = 0; i < d->callsite_count && i < top; i++) {
			const struct dump_site *c = &d->callsites[i];
			char mean[32], all[32];
			printf("  %5.1f%%  %5.1f%%  %9" PRIu64 "  %9s  %9s  %-7s  ", share(c->bytes, bytes), share(c->calls, calls),
			       c->calls, human_size(c->bytes, all, sizeof all),
			       human_size(c->calls ? c->bytes / c->calls : 0, mean, sizeof mean), base_function_names[c->fn]);
			print_site_frames(c->frames);
		}
	}
	qsort(d->callsites, d->callsite_count, sizeof *d->callsites, by_amount);
}

static void print_cpu_sites(const struct dump *d, unsigned top)
{
	if (!d->cpu_site_count || top == 0)
		return;
	printf("\ntop call sites by time (the caller of the function in progress when sampled)\n");
	for (size_t i = 0; i < d->cpu_site_count && i < top; i++) {
		const struct dump_site *c = &d->cpu_sites[i];
		struct cpu_share t;
		char readable[1200];
		if (!profile_share(&d->profile, c->samples, c->ns, &t))
			continue;
		printf("  %-7s ", base_function_names[c->fn]);
		print_share(&t);
		printf("  %s\n", frame_readable(c->frames, readable, sizeof readable));
	}
}

/* Callers by the time their timed calls took (MEMSHIM_TIMING with call sites on). */
static void print_time_sites(const struct dump *d, unsigned top)
{
	if (!d->time_site_count || top == 0)
		return;
	printf("\ntop call sites by timed time (the caller; timed calls are one in %" PRIu64 ", so the time\n"
	       "in calls from there is about %" PRIu64 " times the timed)\n"
	       "  function    timed calls  timed ms  ns per call  caller\n", d->timing.every, d->timing.every);
	for (size_t i = 0; i < d->time_site_count && i < top; i++) {
		const struct dump_site *c = &d->time_sites[i];
		char readable[1200], mean[24];
		printf("  %-10s %12" PRIu64 " %9.3f %12s  %s\n", base_function_names[c->fn], c->calls, ms((double)c->ns),
		       ns_text(c->calls ? (double)c->ns / (double)c->calls : 0, mean, sizeof mean),
		       frame_readable(c->frames, readable, sizeof readable));
	}
}

/* Folded stacks for flamegraph.pl and speedscope: root;...;caller;function bytes.
 * Both split a line at its last space, so a frame keeps its spaces (C++'s
 * "f(unsigned long)"); only ';', their frame separator, is replaced. */
static void print_folded_name(const char *frame)
{
	struct frame_info f;
	symbolize_frame(frame, &f);
	const char *name = f.function[0] ? f.function : frame;
	for (const char *p = name; *p; p++)
		putchar(*p == ';' ? '_' : *p);
}

static void print_folded(const struct dump *d)
{
	for (size_t i = 0; i < d->callsite_count; i++) {
		const struct dump_site *c = &d->callsites[i];
		char raw[8][1024];
		const char *frames = c->frames;
		int n = 0;
		while (n < 8 && next_frame(&frames, raw[n], sizeof raw[n]))
			n++;
		for (int k = n - 1; k >= 0; k--) {
			print_folded_name(raw[k]);
			putchar(';');
		}
		printf("%s %" PRIu64 "\n", base_function_names[c->fn], c->bytes);
	}
}

/* ---- machine-readable outputs ---- */

/* A JSON string: quotes, backslashes and control bytes escaped. */
static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

/* ", \"cpu_share\": ..., \"cpu_ns\": ..." or nulls when there is no profile. */
static void json_share(const struct dump_profile *p, uint64_t samples, uint64_t ns)
{
	struct cpu_share c;
	if (p->processes && profile_share(p, samples, ns, &c))
		printf(", \"cpu_share\": %.6g, \"cpu_share_low\": %.6g, \"cpu_share_high\": %.6g, \"cpu_ns\": %.0f",
		       c.share, c.low, c.high, c.ns);
	else
		printf(", \"cpu_share\": null, \"cpu_share_low\": null, \"cpu_share_high\": null, \"cpu_ns\": null");
}

/* ", \"timed_calls\": ..., \"ns_per_call\": ..." for fn's sizes [lo, hi), or nulls without timed calls. */
static void json_timed(const struct dump *d, int fn, uint64_t lo, uint64_t hi)
{
	struct timed_ns n;
	if (timing_range(&d->timing, (enum base_function)fn, lo, hi, &n))
		printf(", \"timed_calls\": %.0f, \"timed_dropped\": %.0f, \"ns_per_call\": %.6g, \"ns_per_call_low\": %.6g,"
		       " \"ns_per_call_high\": %.6g, \"timed_total_ns\": %.6g",
		       n.calls, n.dropped, n.mean, n.low, n.high, timing_total_ns(d, (enum base_function)fn, lo, hi));
	else
		printf(", \"timed_calls\": %s, \"timed_dropped\": null, \"ns_per_call\": null, \"ns_per_call_low\": null,"
		       " \"ns_per_call_high\": null, \"timed_total_ns\": null", d->timing.processes ? "0" : "null");
}

static void json_frame(const char *frame)
{
	struct frame_info f;
	symbolize_frame(frame, &f);
	printf("{\"frame\": ");
	json_string(frame);
	printf(", \"function\": ");
	if (f.function[0])
		json_string(f.function);
	else
		printf("null");
	printf(", \"file\": ");
	if (f.file[0])
		json_string(f.file);
	else
		printf("null");
	printf(", \"line\": ");
	if (f.line)
		printf("%d", f.line);
	else
		printf("null");
	printf(", \"object\": ");
	json_string(f.object);
	printf("}");
}

static void json_callsites(const struct dump *d)
{
	printf(",\n \"callsites\": [");
	for (size_t i = 0; i < d->callsite_count; i++) {
		const struct dump_site *c = &d->callsites[i];
		printf("%s\n  {\"function\": \"%s\", \"calls\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"mean_size\": %.6g,"
		       " \"frames\": [",
		       i ? "," : "", base_function_names[c->fn], c->calls, c->bytes,
		       c->calls ? (double)c->bytes / (double)c->calls : 0.0);
		char raw[1024];
		const char *frames = c->frames;
		for (int k = 0; next_frame(&frames, raw, sizeof raw); k++) {
			printf("%s", k ? ", " : "");
			json_frame(raw);
		}
		printf("]}");
	}
	printf("],\n \"cpu_sites\": [");
	for (size_t i = 0; i < d->cpu_site_count; i++) {
		const struct dump_site *c = &d->cpu_sites[i];
		printf("%s\n  {\"function\": \"%s\", \"samples\": %" PRIu64, i ? "," : "", base_function_names[c->fn],
		       c->samples);
		json_share(&d->profile, c->samples, c->ns);
		printf(", \"frame\": ");
		json_frame(c->frames);
		printf("}");
	}
	printf("],\n \"time_sites\": [");
	for (size_t i = 0; i < d->time_site_count; i++) {
		const struct dump_site *c = &d->time_sites[i];
		printf("%s\n  {\"function\": \"%s\", \"timed_calls\": %" PRIu64 ", \"timed_ns\": %" PRIu64
		       ", \"ns_per_call\": %.6g, \"frame\": ",
		       i ? "," : "", base_function_names[c->fn], c->calls, c->ns,
		       c->calls ? (double)c->ns / (double)c->calls : 0.0);
		json_frame(c->frames);
		printf("}");
	}
	printf("]");
}

static void json_programs(const struct dump *d)
{
	printf(",\n \"programs\": [");
	for (size_t i = 0; i < d->program_count; i++) {
		const struct dump *p = d->programs[i].d;
		printf("%s\n  {\"name\": ", i ? "," : "");
		json_string(d->programs[i].name);
		printf(", \"processes\": %u, \"profiled_processes\": %u, \"process_cpu_ns\": %" PRIu64 ", \"functions\": {",
		       p->processes, p->profile.processes, p->profile.process_cpu_ns);
		for (int fn = 0; fn < FN_COUNT; fn++) {
			printf("%s\"%s\": {\"calls\": %" PRIu64 ", \"bytes\": %" PRIu64, fn ? ", " : "", base_function_names[fn],
			       fn_calls(p, fn), fn_bytes(p, fn));
			json_share(&p->profile, p->profile.fn_samples[fn], p->profile.fn_ns[fn]);
			printf("}");
		}
		printf("}}");
	}
	printf("]");
}

/* "alias4k": the whole window (as before version 4), and its two parts. */
static void json_alias(const struct function_histogram *f)
{
	printf("    \"alias4k\": {\"calls\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"distance_0\": {\"calls\": %" PRIu64
	       ", \"bytes\": %" PRIu64 "}, \"distance_1_63\": {\"calls\": %" PRIu64 ", \"bytes\": %" PRIu64
	       ", \"from_2k_calls\": %" PRIu64 ", \"from_2k_bytes\": %" PRIu64 "}}",
	       f->alias_same_calls + f->alias_near_calls + f->alias_unsplit_calls,
	       f->alias_same_bytes + f->alias_near_bytes + f->alias_unsplit_bytes, f->alias_same_calls,
	       f->alias_same_bytes, f->alias_near_calls, f->alias_near_bytes, f->alias_near_large_calls,
	       f->alias_near_large_bytes);
}

static void json_classes(const struct dump *d, int fn)
{
	const struct dump_profile *p = &d->profile;
	struct class_sums sums;
	sum_classes(d, fn, &sums);
	printf(",\n    \"size_classes\": [");
	for (unsigned c = 0; c < size_class_count; c++) {
		printf("%s{\"name\": \"%s\", \"lo\": %" PRIu64 ", \"hi\": %" PRIu64 ", \"calls\": %" PRIu64
		       ", \"bytes\": %" PRIu64 ", \"samples\": %" PRIu64,
		       c ? ", " : "", size_classes[c].name, size_classes[c].lo, size_classes[c].hi, sums.calls[c], sums.bytes[c], sums.samples[c]);
		json_share(p, sums.samples[c], sums.ns[c]);
		json_timed(d, fn, size_classes[c].lo, size_classes[c].hi);
		printf("}");
	}
	printf("]");
}

static void print_json(const struct dump *d)
{
	const struct dump_profile *p = &d->profile;
	printf("{\"format\": \"%s\", \"version\": %d, \"files\": %u, \"processes\": %u, \"profile\": ",
	       HIST_FORMAT_NAME, HIST_FORMAT_VERSION, d->files, d->processes);
	if (p->processes)
		printf("{\"processes\": %u, \"rate_hz\": %" PRIu64 ", \"rate_taken_hz\": %.6g, \"samples\": %" PRIu64
		       ", \"sampled_ns\": %" PRIu64 ", \"process_cpu_ns\": %" PRIu64 ", \"wall_ns\": %" PRIu64
		       ", \"handler_replaced\": %u, \"recording_apart\": %u}",
		       p->processes, p->rate_hz, profile_rate_taken(p), p->samples, p->sampled_ns, p->process_cpu_ns,
		       p->wall_ns, p->handler_replaced, p->recording_apart);
	else
		printf("null");
	const struct dump_timing *t = &d->timing;
	printf(", \"timing\": ");
	if (t->processes)
		printf("{\"processes\": %u, \"every\": %" PRIu64 ", \"tsc_hz\": %" PRIu64 ", \"hz_source\": \"%s\","
		       " \"overhead_ns\": %.6g, \"subtracted_ns\": %.6g}",
		       t->processes, t->every, t->tsc_hz, t->hz_source, timing_overhead_ns(t), t->subtracted_ns);
	else
		printf("null");
	printf(", \"functions\": {");
	for (int fn = 0; fn < FN_COUNT; fn++) {
		const struct function_histogram *f = &d->hist.fn[fn];
		printf("%s\n  \"%s\": {\"variant\": \"%s\", \"calls\": %" PRIu64 ", \"bytes\": %" PRIu64,
		       fn ? "," : "", base_function_names[fn], d->variant[fn],
		       sum_buckets(f->calls), sum_buckets(f->bytes));
		json_share(p, p->fn_samples[fn], p->fn_ns[fn]);
		json_timed(d, fn, 0, UINT64_MAX);
		printf(", \"recording\": {\"samples\": %" PRIu64, p->recording_samples[fn]);
		json_share(p, p->recording_samples[fn], p->recording_ns[fn]);
		printf("}, \"entries\": {");
		const char *sep = "";
		for (int e = 0; e < E_COUNT; e++)
			if ((int)entry_point_base[e] == fn) {
				printf("%s\"%s\": %" PRIu64, sep, entry_point_names[e], d->hist.entry_calls[e]);
				sep = ", ";
			}
		printf("},\n    \"buckets\": [");
		sep = "";
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			if (f->calls[b] || p->bucket_samples[fn][b]) {
				printf("%s{\"lo\": %" PRIu64 ", \"hi\": %" PRIu64 ", \"calls\": %" PRIu64
				       ", \"bytes\": %" PRIu64 ", \"samples\": %" PRIu64 ", \"cpu_ns\": %" PRIu64
				       ", \"timed_calls\": %" PRIu64 ", \"timed_ns\": %" PRIu64 ", \"timed_dropped\": %" PRIu64 "}",
				       sep, hist_bucket_lo(b), hist_bucket_hi(b), f->calls[b], f->bytes[b],
				       p->bucket_samples[fn][b], p->bucket_ns[fn][b], t->calls[fn][b], t->ns[fn][b],
				       t->dropped[fn][b]);
				sep = ", ";
			}
		printf("]");
		json_classes(d, fn);
		printf(",\n    \"dst_mod64\": [");
		for (int m = 0; m < 64; m++)
			printf("%s%" PRIu64, m ? ", " : "", f->dst_mod64[m]);
		printf("],\n    \"delta_mod64\": [");
		for (int m = 0; m < 64; m++)
			printf("%s%" PRIu64, m ? ", " : "", f->delta_mod64[m]);
		printf("],\n");
		json_alias(f);
		printf(", \"overlap\": {\"dst_before_src\": %" PRIu64 ", \"dst_after_src\": %" PRIu64 "}"
		       ", \"zero\": {\"calls\": %" PRIu64 ", \"bytes\": %" PRIu64 "}}",
		       f->overlap_dst_before, f->overlap_dst_after, f->zero_calls, f->zero_bytes);
	}
	printf("\n }");
	json_callsites(d);
	json_programs(d);
	printf("\n}\n");
}

/* fleetbench's three lines: size:probability, overlap, alignment:probability. */
static int write_fleetbench(const struct dump *d, const char *prefix)
{
	static const char *const names[FN_COUNT] = { "Memcpy", "Memmove", "Memset" };
	for (int fn = 0; fn < FN_COUNT; fn++) {
		const struct function_histogram *f = &d->hist.fn[fn];
		uint64_t calls = sum_buckets(f->calls);
		char path[4096];
		snprintf(path, sizeof path, "%s%s.csv", prefix, names[fn]);
		if (!calls) { /* no distribution: an empty first line is one fleetbench's reader refuses */
			fprintf(stderr, "memshim report: no %s calls recorded: %s not written\n", base_function_names[fn], path);
			continue;
		}
		FILE *out = fopen(path, "w");
		if (!out) {
			fprintf(stderr, "memshim report: cannot write %s: %s\n", path, strerror(errno));
			return -1;
		}
		/* each bucket's calls at the bucket's mean size, which is exact for sizes 0..16 */
		const char *sep = "";
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			if (f->calls[b]) {
				fprintf(out, "%s%" PRIu64 ":%.9g", sep, (f->bytes[b] + f->calls[b] / 2) / f->calls[b],
				        (double)f->calls[b] / (double)calls);
				sep = ",";
			}
		uint64_t overlapping = f->overlap_dst_before + f->overlap_dst_after;
		fprintf(out, "\n0:%.9g,1:%.9g\n", calls ? 1 - share(overlapping, calls) / 100 : 1,
		        share(overlapping, calls) / 100);
		/* alignment: the largest power of two (up to 64) dividing the destination */
		uint64_t by_alignment[7] = { 0 };
		for (unsigned m = 0; m < 64; m++)
			by_alignment[m ? __builtin_ctz(m) : 6] += f->dst_mod64[m];
		for (int a = 0; a < 7; a++)
			fprintf(out, "%s%d:%.9g", a ? "," : "", 1 << a, share(by_alignment[a], calls) / 100);
		fprintf(out, "\n");
		if (fclose(out) != 0) {
			fprintf(stderr, "memshim report: cannot write %s: %s\n", path, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* ---- the command ---- */

/* More call sites than any dump holds. */
#define REPORT_MAX_TOP 1000000

struct report_options {
	bool json, folded, by_program;
	const char *svg, *fleetbench, *program, *pprof;
	unsigned top;
	int first_file;
};

enum { REPORT_JSON = 1, REPORT_FOLDED, REPORT_BY_PROGRAM, REPORT_PROGRAM, REPORT_SVG, REPORT_FLEETBENCH,
       REPORT_TOP, REPORT_PPROF };

static const struct option report_options[] = {
	{ "json", no_argument, NULL, REPORT_JSON },
	{ "folded", no_argument, NULL, REPORT_FOLDED },
	{ "by-program", no_argument, NULL, REPORT_BY_PROGRAM },
	{ "program", required_argument, NULL, REPORT_PROGRAM },
	{ "svg", required_argument, NULL, REPORT_SVG },
	{ "fleetbench-csv", required_argument, NULL, REPORT_FLEETBENCH },
	{ "top", required_argument, NULL, REPORT_TOP },
	{ "pprof", required_argument, NULL, REPORT_PPROF },
	{ 0 },
};

static int apply_option(void *context, int id, const char *name, const char *value)
{
	struct report_options *o = context;
	if (id == REPORT_JSON)
		o->json = true;
	else if (id == REPORT_FOLDED)
		o->folded = true;
	else if (id == REPORT_BY_PROGRAM)
		o->by_program = true;
	else if (id == REPORT_PROGRAM)
		o->program = value;
	else if (id == REPORT_SVG)
		o->svg = value;
	else if (id == REPORT_FLEETBENCH)
		o->fleetbench = value;
	else if (id == REPORT_PPROF && pprof_missing())
		return cli_usage_error("report", "--pprof: %s", pprof_missing());
	else if (id == REPORT_PPROF)
		o->pprof = value;
	else if (!cli_whole_number(value, 0, REPORT_MAX_TOP, &o->top))
		return cli_usage_error("report", "%s \"%s\" is not a whole number from 0 to %d", name, value,
				       REPORT_MAX_TOP);
	return 0;
}

static int parse_options(int argc, char **argv, struct report_options *o)
{
	*o = (struct report_options){ .top = 10 };
	const struct cli_syntax syntax = { "report", report_options, false };
	int rc = cli_parse_options(argc, argv, &syntax, apply_option, o, &o->first_file);
	if (rc)
		return rc;
	if (o->json + o->folded > 1)
		return cli_usage_error("report", "--json and --folded are two outputs; choose one");
	return 0;
}

static void print_text(struct dump *d, const struct report_options *o)
{
	char title[1200];
	printf("%s (%u dump file%s merged)\n", dump_title(d, title, sizeof title), d->files,
	       d->files == 1 ? "" : "s");
	print_time(d);
	print_timing(d);
	if (o->by_program || d->program_count > 1)
		print_programs(d, o->by_program ? d->program_count : o->top);
	for (int fn = 0; fn < FN_COUNT; fn++)
		print_function(d, fn);
	print_cpu_sites(d, o->top);
	print_time_sites(d, o->top);
	print_callsites(d, o->top);
	if (d->callsite_count && !symbolize_available())
		printf("(this memshim was built without libdw: call sites show as object+offset)\n");
}

int cmd_report(int argc, char **argv)
{
	if (cli_wants_help(argc, argv, report_help, false))
		return 0;
	struct report_options o;
	int rc = parse_options(argc, argv, &o);
	if (rc)
		return rc;
	if (o.first_file >= argc) {
		fprintf(stderr, "memshim report: no dump files given (see memshim report --help)\n");
		return 2;
	}
	struct dump *d = malloc(sizeof *d);
	if (!d)
		return 1;
	hist_dump_init(d);
	d->program_filter = o.program;
	int bad = dump_load("report", argv + o.first_file, (size_t)(argc - o.first_file), d);
	int status = bad ? 1 : 0;
	dump_merge_sites(d);
	qsort(d->callsites, d->callsite_count, sizeof *d->callsites, by_amount);
	qsort(d->cpu_sites, d->cpu_site_count, sizeof *d->cpu_sites, by_amount);
	qsort(d->time_sites, d->time_site_count, sizeof *d->time_sites, by_amount);
	if (d->files == 0) {
		fprintf(stderr, "memshim report: no readable dump\n");
		status = 1;
	} else if (d->processes == 0) {
		fprintf(stderr, "memshim report: no dump of program %s in these files\n", o.program);
		status = 1;
	} else if (o.json) {
		print_json(d);
	} else if (o.folded && d->callsite_count == 0) {
		fprintf(stderr, "memshim report: no call sites were recorded in these dumps, so there are no stacks "
		                "to fold (record them with memshim record --sites, or MEMSHIM_CALLSITES=N)\n");
		status = 1;
	} else if (o.folded) {
		print_folded(d);
	} else {
		print_text(d, &o);
	}
	if (d->processes && o.svg && write_svg(d, o.svg) != 0)
		status = 1;
	if (d->processes && o.fleetbench && write_fleetbench(d, o.fleetbench) != 0)
		status = 1;
	if (d->processes && o.pprof && write_pprof(d, o.pprof, argv + o.first_file, (size_t)(argc - o.first_file)) != 0)
		status = 1;
	symbolize_end();
	hist_dump_free(d);
	free(d);
	return status;
}
