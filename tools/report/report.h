/* memshim report's own parts: the text report (text.c), its call sites
 * (sites.c), folded stacks (folded.c), JSON (json.c), fleetbench's CSV files
 * (fleetbench.c), the SVG figure (svg.c) and the pprof profile (pprof.c). */
#ifndef MEMSHIM_REPORT_H
#define MEMSHIM_REPORT_H

#include "dump/format.h"
#include "dump/reader/load.h"
#include "tools/util/profile_stats.h"
#include "tools/util/units_shares.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct report_options {
	bool json, folded, by_program;
	bool force; /* --force: the output files may be replaced */
	const char *svg, *fleetbench, *program, *pprof;
	unsigned top;
	int first_file;
};

/* part as a percentage of whole (0 if whole is 0). */
static inline double share(uint64_t part, uint64_t whole) { return whole ? 100.0 * (double)part / (double)whole : 0; }
static inline double ms(double ns) { return ns / 1e6; }
static inline uint64_t fn_calls(const struct dump *d, int fn) { return sum_buckets(d->hist.fn[fn].calls); }
static inline uint64_t fn_bytes(const struct dump *d, int fn) { return sum_buckets(d->hist.fn[fn].bytes); }

/* A function's calls, bytes, profile samples and CPU ns, by size class. */
struct class_sums {
	uint64_t calls[16], bytes[16], samples[16], ns[16];
};
void sum_classes(const struct dump *d, int fn, struct class_sums *s);

/* bottom_line.c: the report's first lines: the three functions' share of
 * CPU time together, the recording's cost, any hazard, where the time goes
 * and what a setting must win to show. */
void print_bottom_line(const struct dump *d);
/* text.c: the text report's parts, in the order it prints them. */
/* "13.8% of CPU time (12.1–15.6%), 5.4 ms" */
void print_share(const struct cpu_share *c);
/* fn's 4 KiB-aliasing hazard, as a fraction of its recorded time where the
 * row `list` gives its cost and there is one, else of its bytes; 0 where
 * the row measured this CPU and rep movsb is not slow there. */
double hazard_share(const struct dump *d, enum base_function fn, const char *list);
/* The 4 KiB-aliasing hazard of rep movsb, first: each function's where it
 * takes more than 1% of the recorded time (of the bytes without a time or
 * the row's figure), with its cost on this CPU and what avoids it. */
void print_hazards(const struct dump *d);
/* The share of CPU time in each function (MEMSHIM_PROFILE). */
void print_time(const struct dump *d);
/* The time per call (MEMSHIM_TIMING). */
void print_timing(const struct dump *d);
/* A table of the first `lines` programs of the dumps. */
void print_programs(const struct dump *d, size_t lines);
/* fn's totals, percentiles, size classes, chart and alignment tables. */
void print_function(const struct dump *d, int fn);
/* "2.03", "45.1", "4903": ns to about three figures. */
const char *ns_text(double ns, char *buf, size_t size);

/* sites.c: call sites, the largest amount (bytes, or CPU ns) first (a
 * qsort order), and the top ones of each kind. */
int by_amount(const void *a, const void *b);
/* The frames of a call site, space-separated in the dump, one by one. */
const char *next_frame(const char **text, char *buf, size_t size);
void print_callsites(const struct dump *d, unsigned top);
void print_cpu_sites(const struct dump *d, unsigned top);
void print_time_sites(const struct dump *d, unsigned top);

/* folded.c: the sampled stacks, folded for flamegraph.pl and speedscope. */
void print_folded(const struct dump *d);

/* json.c: the merged histogram as JSON. */
void print_json(const struct dump *d);

/* fleetbench.c: PREFIXMemcpy.csv ... in fleetbench's size:probability
 * format; -1 (after a message) if one cannot be written. */
int write_fleetbench(const struct dump *d, const char *prefix, bool replace);

/* svg.c: the figure of --svg; prints why and returns -1 if it cannot be written. */
int write_svg(const struct dump *d, const char *path, bool replace);

#endif
