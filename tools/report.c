/* memshim report: merges any number of histogram dumps and shows where a
 * program's copy time goes: totals, size percentiles by calls and by bytes,
 * size classes, a bar chart, alignment and aliasing tables, call sites;
 * or the same as JSON, an SVG plot, or fleetbench's distribution format. */
#include "tools/report.h"

#include "shim/histogram_format.h"
#include "tools/cli.h"
#include "tools/cli_options.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char report_help[] =
	"usage: memshim report [OPTIONS] FILE...\n"
	"Merges histogram dumps (written with MEMSHIM_HIST=PATH) and prints, per function,\n"
	"totals, size percentiles by calls and by bytes, size classes, a bar chart,\n"
	"alignment and 4 KiB-aliasing tables, and the top call sites.\n"
	"  --json                 print the merged histogram as JSON instead\n"
	"  --svg OUT.svg          also write a plot (log size axis, calls and bytes)\n"
	"  --fleetbench-csv PREFIX also write PREFIXMemcpy.csv, PREFIXMemmove.csv and\n"
	"                         PREFIXMemset.csv in fleetbench's size:probability format\n"
	"  --top N                call sites to show (default 10)\n"
	"A file that cannot be read is named with the reason and left out; the exit\n"
	"status is then 1.\n";

/* ---- numbers for people ---- */

static const char *human_bytes(uint64_t n, char *buf, size_t size)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)n;
	int u = 0;
	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, size, "%" PRIu64 " B", n);
	else
		snprintf(buf, size, v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" : "%.0f %s", v, units[u]);
	return buf;
}

/* A size as short text: 512, 1.5K, 120K, 2M. */
static const char *short_size(uint64_t n, char *buf, size_t size)
{
	static const char suffix[] = " KMGTPE";
	int u = 0;
	double v = (double)n;
	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, size, "%" PRIu64, n);
	else if (v == (double)(uint64_t)v)
		snprintf(buf, size, "%.0f%c", v, suffix[u]);
	else
		snprintf(buf, size, v < 10 ? "%.2f%c" : "%.1f%c", v, suffix[u]);
	return buf;
}

static double share(uint64_t part, uint64_t whole) { return whole ? 100.0 * (double)part / (double)whole : 0; }

static uint64_t total(const uint64_t *counts, unsigned n)
{
	uint64_t t = 0;
	for (unsigned i = 0; i < n; i++)
		t += counts[i];
	return t;
}

/* The bucket holding the p-th percentile of `counts` (calls or bytes). */
static unsigned percentile_bucket(const uint64_t *counts, double p)
{
	uint64_t all = total(counts, HIST_BUCKETS), seen = 0;
	for (unsigned b = 0; b < HIST_BUCKETS; b++) {
		seen += counts[b];
		if (all && (double)seen >= p / 100.0 * (double)all)
			return b;
	}
	return HIST_BUCKETS - 1;
}

/* A bucket as "lo-hi", hi excluded, or the size itself for the exact buckets. */
static const char *bucket_text(unsigned b, char *buf, size_t size)
{
	char lo[16], hi[16];
	if (hist_bucket_hi(b) - hist_bucket_lo(b) == 1)
		return short_size(hist_bucket_lo(b), buf, size);
	snprintf(buf, size, "%s-%s", short_size(hist_bucket_lo(b), lo, sizeof lo),
	         short_size(hist_bucket_hi(b), hi, sizeof hi));
	return buf;
}

/* Size classes for the summary, on bucket boundaries so that every bucket
 * falls in exactly one class. */
static const struct {
	const char *name;
	uint64_t lo, hi; /* [lo, hi) */
} size_classes[] = {
	{ "0..16", 0, 17 },          { "17..63", 17, 64 },        { "64..255", 64, 256 },
	{ "256..1K-1", 256, 1024 },  { "1K..4K-1", 1024, 4096 },  { "4K..32K-1", 4096, 32768 },
	{ "32K..256K-1", 32768, 262144 }, { "256K..4M-1", 262144, 4194304 },
	{ ">=4M", 4194304, UINT64_MAX },
};
#define N_CLASSES (sizeof size_classes / sizeof size_classes[0])

static void sum_classes(const struct function_histogram *f, uint64_t *calls, uint64_t *bytes)
{
	for (unsigned c = 0; c < N_CLASSES; c++)
		calls[c] = bytes[c] = 0;
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		for (unsigned c = 0; c < N_CLASSES; c++)
			if (hist_bucket_lo(b) >= size_classes[c].lo && hist_bucket_lo(b) < size_classes[c].hi) {
				calls[c] += f->calls[b];
				bytes[c] += f->bytes[b];
			}
}

static void bar(double percent, int width)
{
	int cells = (int)lround(percent / 100.0 * width);
	for (int i = 0; i < width; i++)
		fputs(i < cells ? "#" : (i == 0 && percent > 0 ? "." : " "), stdout);
}

/* ---- the text report ---- */

static void print_percentiles(const struct function_histogram *f)
{
	static const double ps[] = { 50, 90, 99 };
	char buf[40];
	printf("  size percentiles (bucket lo-hi, hi excluded)\n");
	printf("                      p50          p90          p99\n");
	printf("    by calls     ");
	for (int i = 0; i < 3; i++)
		printf(" %-12s", bucket_text(percentile_bucket(f->calls, ps[i]), buf, sizeof buf));
	printf("\n    by bytes     ");
	for (int i = 0; i < 3; i++)
		printf(" %-12s", bucket_text(percentile_bucket(f->bytes, ps[i]), buf, sizeof buf));
	printf("\n");
}

static void print_classes(const struct function_histogram *f, uint64_t calls, uint64_t bytes)
{
	uint64_t cc[N_CLASSES], cb[N_CLASSES];
	sum_classes(f, cc, cb);
	printf("  size class        calls   bytes   calls%%                bytes%%\n");
	for (unsigned c = 0; c < N_CLASSES; c++) {
		if (!cc[c])
			continue;
		printf("    %-12s %6.1f%% %6.1f%%  ", size_classes[c].name, share(cc[c], calls),
		       share(cb[c], bytes));
		bar(share(cc[c], calls), 20);
		printf("  ");
		bar(share(cb[c], bytes), 20);
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
	printf("  by power of two (hi excluded)  calls                  bytes\n");
	for (unsigned b = 0, end; b < HIST_BUCKETS; b = end) {
		uint64_t c = 0, y = 0;
		for (end = b; end < HIST_BUCKETS && chart_row(end) == chart_row(b); end++) {
			c += f->calls[end];
			y += f->bytes[end];
		}
		if (!c)
			continue;
		char l[16], h[16];
		printf("    %5s-%-6s ", short_size(hist_bucket_lo(b), l, sizeof l),
		       short_size(hist_bucket_hi(end - 1), h, sizeof h));
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

static void print_function(const struct dump *d, int fn)
{
	const struct function_histogram *f = &d->hist.fn[fn];
	uint64_t calls = total(f->calls, HIST_BUCKETS), bytes = total(f->bytes, HIST_BUCKETS);
	char b1[32], b2[32];
	printf("\n%s: %" PRIu64 " calls, %s", base_function_names[fn], calls, human_bytes(bytes, b1, sizeof b1));
	if (calls)
		printf(" (mean %s)", human_bytes(bytes / calls, b2, sizeof b2));
	printf(", variant %s\n", d->variant[fn][0] ? d->variant[fn] : "?");
	if (!calls)
		return;
	printf("  by name:");
	for (int e = 0; e < E_COUNT; e++)
		if ((int)entry_point_base[e] == fn && d->hist.entry_calls[e])
			printf(" %s %.1f%%", entry_point_names[e], share(d->hist.entry_calls[e], calls));
	printf("\n");
	print_percentiles(f);
	print_classes(f, calls, bytes);
	print_chart(f, calls, bytes);
	print_mod64("destination mod 64", f->dst_mod64, calls);
	if (fn != FN_MEMSET) {
		print_mod64("(dst - src) mod 64", f->delta_mod64, calls);
		printf("  4 KiB aliasing ((dst - src) mod 4096 < %d): %.2f%% of calls, %.2f%% of bytes\n",
		       HIST_ALIAS_WINDOW, share(f->alias_calls, calls), share(f->alias_bytes, bytes));
	}
	if (fn == FN_MEMMOVE)
		printf("  overlapping: %.2f%% with destination before source, %.2f%% after\n",
		       share(f->overlap_dst_before, calls), share(f->overlap_dst_after, calls));
	if (fn == FN_MEMSET)
		printf("  value 0: %.1f%% of calls, %.1f%% of bytes\n", share(f->zero_calls, calls),
		       share(f->zero_bytes, bytes));
}

/* Call sites: the same frames seen in several files are one site. */
static int by_bytes(const void *a, const void *b)
{
	const struct dump_callsite *x = a, *y = b;
	return x->bytes < y->bytes ? 1 : x->bytes > y->bytes ? -1 : 0;
}

static int by_calls(const void *a, const void *b)
{
	const struct dump_callsite *x = a, *y = b;
	return x->calls < y->calls ? 1 : x->calls > y->calls ? -1 : 0;
}

static size_t merge_callsites(struct dump *d)
{
	size_t kept = 0;
	for (size_t i = 0; i < d->callsite_count; i++) {
		struct dump_callsite *c = &d->callsites[i];
		size_t j = 0;
		while (j < kept && !(d->callsites[j].fn == c->fn && strcmp(d->callsites[j].frames, c->frames) == 0))
			j++;
		if (j < kept) {
			d->callsites[j].calls += c->calls;
			d->callsites[j].bytes += c->bytes;
			free(c->frames);
		} else {
			d->callsites[kept++] = *c;
		}
	}
	return d->callsite_count = kept;
}

static void print_callsites(struct dump *d, unsigned top)
{
	if (!merge_callsites(d) || top == 0)
		return;
	uint64_t calls = 0, bytes = 0;
	for (size_t i = 0; i < d->callsite_count; i++) {
		calls += d->callsites[i].calls;
		bytes += d->callsites[i].bytes;
	}
	int (*order[2])(const void *, const void *) = { by_bytes, by_calls };
	const char *title[2] = { "bytes", "calls" };
	for (int o = 0; o < 2; o++) {
		qsort(d->callsites, d->callsite_count, sizeof *d->callsites, order[o]);
		printf("\ntop call sites by %s (%" PRIu64 " sampled calls; caller first, then its callers)\n",
		       title[o], calls);
		for (size_t i = 0; i < d->callsite_count && i < top; i++) {
			const struct dump_callsite *c = &d->callsites[i];
			printf("  %5.1f%% bytes %5.1f%% calls  %-7s %s\n", share(c->bytes, bytes),
			       share(c->calls, calls), base_function_names[c->fn], c->frames);
		}
	}
}

/* ---- machine-readable outputs ---- */

static void print_json(const struct dump *d)
{
	printf("{\"format\": \"%s\", \"version\": %d, \"files\": %u, \"functions\": {", HIST_FORMAT_NAME,
	       HIST_FORMAT_VERSION, d->files);
	for (int fn = 0; fn < FN_COUNT; fn++) {
		const struct function_histogram *f = &d->hist.fn[fn];
		printf("%s\n  \"%s\": {\"variant\": \"%s\", \"calls\": %" PRIu64 ", \"bytes\": %" PRIu64,
		       fn ? "," : "", base_function_names[fn], d->variant[fn],
		       total(f->calls, HIST_BUCKETS), total(f->bytes, HIST_BUCKETS));
		printf(", \"entries\": {");
		const char *sep = "";
		for (int e = 0; e < E_COUNT; e++)
			if ((int)entry_point_base[e] == fn) {
				printf("%s\"%s\": %" PRIu64, sep, entry_point_names[e], d->hist.entry_calls[e]);
				sep = ", ";
			}
		printf("},\n    \"buckets\": [");
		sep = "";
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			if (f->calls[b]) {
				printf("%s{\"lo\": %" PRIu64 ", \"hi\": %" PRIu64 ", \"calls\": %" PRIu64
				       ", \"bytes\": %" PRIu64 "}",
				       sep, hist_bucket_lo(b), hist_bucket_hi(b), f->calls[b], f->bytes[b]);
				sep = ", ";
			}
		printf("],\n    \"dst_mod64\": [");
		for (int m = 0; m < 64; m++)
			printf("%s%" PRIu64, m ? ", " : "", f->dst_mod64[m]);
		printf("],\n    \"delta_mod64\": [");
		for (int m = 0; m < 64; m++)
			printf("%s%" PRIu64, m ? ", " : "", f->delta_mod64[m]);
		printf("],\n    \"alias4k\": {\"calls\": %" PRIu64 ", \"bytes\": %" PRIu64 "}"
		       ", \"overlap\": {\"dst_before_src\": %" PRIu64 ", \"dst_after_src\": %" PRIu64 "}"
		       ", \"zero\": {\"calls\": %" PRIu64 ", \"bytes\": %" PRIu64 "}}",
		       f->alias_calls, f->alias_bytes, f->overlap_dst_before, f->overlap_dst_after,
		       f->zero_calls, f->zero_bytes);
	}
	printf("\n}}\n");
}

/* fleetbench's three lines: size:probability, overlap, alignment:probability. */
static int write_fleetbench(const struct dump *d, const char *prefix)
{
	static const char *const names[FN_COUNT] = { "Memcpy", "Memmove", "Memset" };
	for (int fn = 0; fn < FN_COUNT; fn++) {
		const struct function_histogram *f = &d->hist.fn[fn];
		uint64_t calls = total(f->calls, HIST_BUCKETS);
		char path[4096];
		snprintf(path, sizeof path, "%s%s.csv", prefix, names[fn]);
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

/* ---- the SVG plot ---- */

#define SVG_WIDTH 960
#define PANEL_HEIGHT 280
#define MARGIN_LEFT 70
#define MARGIN_RIGHT 30
#define PLOT_TOP 40
#define PLOT_HEIGHT 180

/* log2 of a bucket edge; size 0's bucket is drawn from 2^-1 to 2^0. */
static double log_edge(uint64_t size) { return size ? log2((double)size) : -1; }

struct axis {
	double x_min, x_max, y_max; /* log2 sizes; percent */
	int top;                    /* panel's y offset */
};

static double px(const struct axis *a, double log_size)
{
	return MARGIN_LEFT + (log_size - a->x_min) / (a->x_max - a->x_min) * (SVG_WIDTH - MARGIN_LEFT - MARGIN_RIGHT);
}

static double py(const struct axis *a, double percent)
{
	return a->top + PLOT_TOP + PLOT_HEIGHT - percent / a->y_max * PLOT_HEIGHT;
}

/* A step line: each bucket's share of the total, flat across the bucket. */
static void svg_series(FILE *out, const struct axis *a, const uint64_t *counts, const char *colour)
{
	uint64_t all = total(counts, HIST_BUCKETS);
	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", colour);
	fprintf(out, "%.1f,%.1f", px(a, a->x_min), py(a, 0));
	for (unsigned b = 0; b < HIST_BUCKETS; b++) {
		double lo = log_edge(hist_bucket_lo(b)), hi = log_edge(hist_bucket_hi(b));
		if (lo < a->x_min || hi > a->x_max)
			continue;
		double y = py(a, share(counts[b], all));
		fprintf(out, " %.1f,%.1f %.1f,%.1f", px(a, lo), y, px(a, hi), y);
	}
	fprintf(out, " %.1f,%.1f\"/>\n", px(a, a->x_max), py(a, 0));
}

static void svg_axes(FILE *out, const struct axis *a, const char *title)
{
	int bottom = a->top + PLOT_TOP + PLOT_HEIGHT;
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"15\" font-weight=\"bold\">%s</text>\n",
	        MARGIN_LEFT, a->top + 22, title);
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", MARGIN_LEFT,
	        bottom, SVG_WIDTH - MARGIN_RIGHT, bottom);
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", MARGIN_LEFT,
	        a->top + PLOT_TOP, MARGIN_LEFT, bottom);
	for (int p = 0; p <= (int)a->x_max; p += 2) {
		char label[16];
		fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ccc\"/>\n", px(a, p),
		        a->top + PLOT_TOP, px(a, p), bottom);
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n",
		        px(a, p), bottom + 15, short_size(1ull << p, label, sizeof label));
	}
	for (int i = 0; i <= 4; i++) {
		double v = a->y_max * i / 4;
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%.3g%%</text>\n",
		        MARGIN_LEFT - 6, py(a, v) + 4, v);
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">0</text>\n",
	        px(a, -0.5), bottom + 15);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">size in bytes (log scale); "
	        "share of <tspan fill=\"#1f5fbf\">calls</tspan> and of <tspan fill=\"#e07000\">bytes</tspan> "
	        "per size bucket</text>\n",
	        SVG_WIDTH / 2, bottom + 32);
}

static void svg_threshold(FILE *out, const struct axis *a, uint64_t threshold, const char *label)
{
	double x = log_edge(threshold);
	if (threshold == 0 || x < a->x_min || x > a->x_max)
		return;
	fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#2a2\" stroke-dasharray=\"5,4\"/>\n",
	        px(a, x), a->top + PLOT_TOP, px(a, x), a->top + PLOT_TOP + PLOT_HEIGHT);
	bool right_half = px(a, x) > SVG_WIDTH / 2;
	fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"#2a2\" text-anchor=\"%s\">%s</text>\n",
	        px(a, x) + (right_half ? -4 : 4), a->top + PLOT_TOP + 12, right_half ? "end" : "start", label);
}

static void svg_panel(FILE *out, const struct dump *d, int fn, int top)
{
	const struct function_histogram *f = &d->hist.fn[fn];
	uint64_t calls = total(f->calls, HIST_BUCKETS), bytes = total(f->bytes, HIST_BUCKETS);
	struct axis a = { -1, 12, 1, top };
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		if (f->calls[b]) {
			double hi = log_edge(hist_bucket_hi(b));
			if (hi + 1 > a.x_max)
				a.x_max = ceil(hi + 1);
			if (share(f->calls[b], calls) > a.y_max)
				a.y_max = share(f->calls[b], calls);
			if (share(f->bytes[b], bytes) > a.y_max)
				a.y_max = share(f->bytes[b], bytes);
		}
	a.y_max = ceil(a.y_max / 5) * 5;
	char title[160], human[32];
	snprintf(title, sizeof title, "%s: %" PRIu64 " calls, %s, variant %s", base_function_names[fn], calls,
	         human_bytes(bytes, human, sizeof human), d->variant[fn]);
	svg_axes(out, &a, title);
	svg_series(out, &a, f->calls, "#1f5fbf");
	svg_series(out, &a, f->bytes, "#e07000");
	uint64_t threshold = fn == FN_MEMSET ? d->stosb_threshold : d->erms_threshold;
	char label[64];
	snprintf(label, sizeof label, "%s threshold %" PRIu64 " B%s", fn == FN_MEMSET ? "rep stosb" : "rep movsb",
	         threshold, strcmp(d->variant[fn], "erms") ? " (used by erms)" : "");
	svg_threshold(out, &a, threshold, label);
}

static int write_svg(const struct dump *d, const char *path)
{
	FILE *out = fopen(path, "w");
	if (!out) {
		fprintf(stderr, "memshim report: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	             "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
	        SVG_WIDTH, PANEL_HEIGHT * FN_COUNT);
	for (int fn = 0; fn < FN_COUNT; fn++)
		svg_panel(out, d, fn, fn * PANEL_HEIGHT);
	fprintf(out, "</svg>\n");
	if (fclose(out) != 0) {
		fprintf(stderr, "memshim report: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- the command ---- */

struct report_options {
	bool json;
	const char *svg, *fleetbench;
	unsigned top;
	int first_file;
};

enum { REPORT_JSON = 1, REPORT_SVG, REPORT_FLEETBENCH, REPORT_TOP };

static const struct option report_options[] = {
	{ "json", no_argument, NULL, REPORT_JSON },
	{ "svg", required_argument, NULL, REPORT_SVG },
	{ "fleetbench-csv", required_argument, NULL, REPORT_FLEETBENCH },
	{ "top", required_argument, NULL, REPORT_TOP },
	{ 0 },
};

static int apply_option(void *context, int id, const char *name, const char *value)
{
	struct report_options *o = context;
	char *end;
	if (id == REPORT_JSON)
		o->json = true;
	else if (id == REPORT_SVG)
		o->svg = value;
	else if (id == REPORT_FLEETBENCH)
		o->fleetbench = value;
	else if (value[0] < '0' || value[0] > '9' || (o->top = (unsigned)strtoul(value, &end, 10), *end))
		return cli_usage_error("report", "%s \"%s\" is not a whole number", name, value);
	return 0;
}

static int parse_options(int argc, char **argv, struct report_options *o)
{
	o->json = false;
	o->svg = o->fleetbench = NULL;
	o->top = 10;
	const struct cli_syntax syntax = { "report", report_options, false };
	return cli_parse_options(argc, argv, &syntax, apply_option, o, &o->first_file);
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
	int bad = 0;
	for (int i = o.first_file; i < argc; i++) {
		char why[256];
		if (!hist_read_file(argv[i], d, why, sizeof why)) {
			fprintf(stderr, "memshim report: %s: %s; left out\n", argv[i], why);
			bad++;
		}
	}
	int status = bad ? 1 : 0;
	if (d->files == 0) {
		fprintf(stderr, "memshim report: no readable dump\n");
		status = 1;
	} else if (o.json) {
		print_json(d);
	} else {
		printf("%u dump file%s merged\n", d->files, d->files == 1 ? "" : "s");
		for (int fn = 0; fn < FN_COUNT; fn++)
			print_function(d, fn);
		print_callsites(d, o.top);
	}
	if (d->files && o.svg && write_svg(d, o.svg) != 0)
		status = 1;
	if (d->files && o.fleetbench && write_fleetbench(d, o.fleetbench) != 0)
		status = 1;
	hist_dump_free(d);
	free(d);
	return status;
}
