/* memshim report's top call sites: by bytes, by CPU time and by time per call. */
#include "config.h"

#include "tools/report/report.h"
#include "tools/util/escape.h"

#include "dispatch/config.h"
#include "dump/reader/read.h"
#include "tools/report/symbolize.h"
#include "tools/util/timing_stats.h"
#include "tools/util/sort.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Call sites, the largest amount (bytes, or CPU ns) first, then by function
 * and frames so that the order is the same on every run. */
int by_amount(const void *a, const void *b)
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
const char *next_frame(const char **text, char *buf, size_t size)
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
	     first = "\n                                                         <- ") {
		printf("%s", first);
		write_escaped(stdout, frame_readable(f, readable, sizeof readable), ESCAPE_TEXT);
	}
	printf("\n");
}

/* The text report names a site by its caller and two above it, what a
 * person reads in a table; sites whose stacks part deeper add up into one
 * line.  --folded, --json and --pprof keep the whole stacks. */
#define TEXT_FRAMES 3

/* Into `shallow` (empty): d's call sites cut to TEXT_FRAMES frames, merged;
 * false if memory ran out. */
static bool shallow_sites(const struct dump *d, struct dump *shallow)
{
	shallow->callsites = calloc(d->callsite_count, sizeof *shallow->callsites);
	if (!shallow->callsites)
		return false;
	for (size_t i = 0; i < d->callsite_count; i++) {
		const struct dump_site *c = &d->callsites[i];
		size_t len = 0;
		for (int f = 0; f < TEXT_FRAMES && c->frames[len]; f++)
			len += (f > 0) + strcspn(c->frames + len + (f > 0), " ");
		struct dump_site *to = &shallow->callsites[shallow->callsite_count];
		*to = *c;
		if (!(to->frames = strndup(c->frames, len)))
			return false;
		shallow->callsite_count++;
	}
	dump_merge_sites(shallow);
	return true;
}

static void print_site_rows(struct dump *d, unsigned top)
{
	uint64_t calls = 0, bytes = 0;
	for (size_t i = 0; i < d->callsite_count; i++) {
		calls += d->callsites[i].calls;
		bytes += d->callsites[i].bytes;
	}
	int (*order[2])(const void *, const void *) = { by_amount, by_calls };
	const char *title[2] = { "bytes", "calls" };
	for (int o = 0; o < 2; o++) {
		sort_items(d->callsites, d->callsite_count, sizeof *d->callsites, order[o]);
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
}

void print_callsites(const struct dump *d, unsigned top)
{
	if (!d->callsite_count || top == 0)
		return;
	struct dump *shallow = calloc(1, sizeof *shallow);
	if (shallow && shallow_sites(d, shallow))
		print_site_rows(shallow, top);
	else
		fprintf(stderr, "memshim report: out of memory for the top call sites\n");
	if (shallow)
		hist_dump_free(shallow);
	free(shallow);
}

void print_cpu_sites(const struct dump *d, unsigned top)
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
		printf("  ");
		write_escaped(stdout, frame_readable(c->frames, readable, sizeof readable), ESCAPE_TEXT);
		printf("\n");
	}
}

/* Callers by the time their timed calls took (MEMSHIM_TIMING with call sites on). */
void print_time_sites(const struct dump *d, unsigned top)
{
	if (!d->time_site_count || top == 0)
		return;
	printf("\ntop call sites by timed time (the caller; timed calls are one in %" PRIu64 ", so the time\n"
	       "in calls from there is about %" PRIu64 " times the timed)\n"
	       "  function    timed calls  timed ms  ns per call  caller\n", d->timing.every, d->timing.every);
	for (size_t i = 0; i < d->time_site_count && i < top; i++) {
		const struct dump_site *c = &d->time_sites[i];
		char readable[1200], mean[24];
		printf("  %-10s %12" PRIu64 " %9.3f %12s  ", base_function_names[c->fn], c->calls, ms((double)c->ns),
		       ns_text(c->calls ? (double)c->ns / (double)c->calls : 0, mean, sizeof mean));
		write_escaped(stdout, frame_readable(c->frames, readable, sizeof readable), ESCAPE_TEXT);
		printf("\n");
	}
}
