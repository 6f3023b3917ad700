/* memshim report --svg: one panel per function, sharing one x axis (the
 * same size range for every panel, so that functions compare), one bar per
 * power of two with sizes 0-16 in one (their one-byte buckets would
 * otherwise take a third of a log axis), and round y ticks.  With timed
 * calls (MEMSHIM_TIMING) each bar group is topped with its ns per call. */
#include "tools/profile_stats.h"
#include "tools/report_parts.h"
#include "tools/timing_stats.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define SVG_WIDTH 960
#define TITLE_HEIGHT 44
#define PANEL_HEIGHT 270
#define MARGIN_LEFT 70
#define MARGIN_RIGHT 30
#define PLOT_TOP 34
#define PLOT_HEIGHT 180
#define SLOTS 46 /* slot 0: sizes 0..16; slot k: [2^(k+3), 2^(k+4)) */

enum series { S_CALLS, S_BYTES, S_CPU, S_TIMED, S_COUNT };
static const char *const series_colour[S_COUNT] = { "#1f5fbf", "#e07000", "#2a9d3a", "#8a2be2" };
static const char *const series_name[S_COUNT] = { "calls", "bytes", "CPU time", "timed time" };

static unsigned slot_of_bucket(unsigned b)
{
	uint64_t lo = hist_bucket_lo(b);
	if (lo <= HIST_EXACT_MAX)
		return 0;
	unsigned s = (unsigned)(63 - __builtin_clzll(lo)) - 3;
	return s < SLOTS ? s : SLOTS - 1;
}

/* A size's place on the axis, in slots. */
static double size_position(uint64_t n)
{
	return n <= HIST_EXACT_MAX ? (double)n / (HIST_EXACT_MAX + 1) : log2((double)n) - 3;
}

/* The timed ns per call of each slot of fn (0: none timed), and the time
 * its calls took in all, from them. */
static void slot_timing(const struct dump *d, int fn, double per_call[SLOTS], double total[SLOTS])
{
	double calls[SLOTS] = { 0 }, timed[SLOTS] = { 0 }, ns[SLOTS] = { 0 };
	for (unsigned b = 0; b < HIST_BUCKETS; b++) {
		unsigned k = slot_of_bucket(b);
		calls[k] += (double)d->hist.fn[fn].calls[b];
		timed[k] += (double)d->timing.calls[fn][b];
		ns[k] += (double)d->timing.ns[fn][b];
	}
	for (unsigned k = 0; k < SLOTS; k++) {
		per_call[k] = timed[k] ? ns[k] / timed[k] : 0;
		total[k] = calls[k] * per_call[k];
	}
}

/* Each series' share (percent) per slot, for function fn: of its calls, of
 * its bytes, of its CPU time, of its timed time, so that each series adds
 * up to 100%. */
static void slot_shares(const struct dump *d, int fn, double share[S_COUNT][SLOTS], double per_call[SLOTS])
{
	const uint64_t *tables[S_CPU + 1] = { d->hist.fn[fn].calls, d->hist.fn[fn].bytes, d->profile.bucket_ns[fn] };
	double values[S_COUNT][SLOTS] = { { 0 } }, all[S_COUNT] = { 0 };
	for (int s = 0; s <= S_CPU; s++)
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			values[s][slot_of_bucket(b)] += (double)tables[s][b];
	slot_timing(d, fn, per_call, values[S_TIMED]);
	for (int s = 0; s < S_COUNT; s++) {
		for (unsigned k = 0; k < SLOTS; k++)
			all[s] += values[s][k];
		for (unsigned k = 0; k < SLOTS; k++)
			share[s][k] = all[s] > 0 ? 100.0 * values[s][k] / all[s] : 0;
	}
}

/* A round step for about `ticks` ticks up to max: 1, 2, 2.5 or 5 times a power of ten. */
static double nice_step(double max, int ticks)
{
	double raw = max / ticks, power = pow(10, floor(log10(raw)));
	static const double steps[] = { 1, 2, 2.5, 5, 10 };
	for (unsigned i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (steps[i] * power >= raw)
			return steps[i] * power;
	return 10 * power;
}

struct figure {
	unsigned first, last; /* the slots shown, the same in every panel */
	int series;           /* how many of shown[] */
	enum series shown[S_COUNT]; /* calls and bytes, then CPU time with a profile, timed time with timed calls */
};

static double px(const struct figure *f, double position)
{
	return MARGIN_LEFT + (position - f->first) / (f->last + 1 - f->first) * (SVG_WIDTH - MARGIN_LEFT - MARGIN_RIGHT);
}

static const char *tick_label(unsigned slot, char *buf, size_t size)
{
	static const char suffix[] = " KMGTPE";
	uint64_t n = 1ull << (slot + 3);
	int u = 0;
	while (n >= 1024 && u < 6) {
		n /= 1024;
		u++;
	}
	snprintf(buf, size, u ? "%" PRIu64 "%c" : "%" PRIu64, n, suffix[u]);
	return buf;
}

static void draw_x_axis(FILE *out, const struct figure *f, int bottom, int top)
{
	for (unsigned k = f->first; k <= f->last + 1; k++) {
		char label[16];
		fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n", px(f, k), top,
		        px(f, k), bottom);
		if (k <= 1) /* the 0-16 slot is labelled in its middle */
			continue;
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n", px(f, k),
		        bottom + 14, tick_label(k, label, sizeof label));
	}
	if (f->first == 0)
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">0\u201316</text>\n",
		        px(f, 0.5), bottom + 14);
}

static void draw_threshold(FILE *out, const struct figure *f, const struct dump *d, int fn, int top, int bottom)
{
	const char *what;
	uint64_t t = variant_threshold(d, fn, &what);
	double x = size_position(t);
	if (t == 0 || x < f->first || x > f->last + 1)
		return;
	char size[32];
	bool right_half = px(f, x) > SVG_WIDTH / 2;
	fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#a0a\" stroke-dasharray=\"5,4\"/>\n",
	        px(f, x), top, px(f, x), bottom);
	fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"#a0a\" text-anchor=\"%s\">%s %s</text>\n",
	        px(f, x) + (right_half ? -4 : 4), top + 12, right_half ? "end" : "start", what,
	        human_size(t, size, sizeof size));
}

/* Each slot's timed ns per call, above its bars. */
static void draw_per_call(FILE *out, const struct figure *f, const double per_call[SLOTS], int plot_top)
{
	for (unsigned k = f->first; k <= f->last; k++) {
		if (!(per_call[k] > 0))
			continue;
		double ns = per_call[k];
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" fill=\"%s\" text-anchor=\"middle\">%.*f</text>\n",
		        px(f, k + 0.5), plot_top - 2, series_colour[S_TIMED], ns < 10 ? 1 : 0, ns);
	}
}

static void draw_panel(FILE *out, const struct figure *f, const struct dump *d, int fn, int top)
{
	double share[S_COUNT][SLOTS], per_call[SLOTS], max = 0;
	slot_shares(d, fn, share, per_call);
	for (int s = 0; s < f->series; s++)
		for (unsigned k = f->first; k <= f->last; k++)
			max = fmax(max, share[f->shown[s]][k]);
	double step = nice_step(max > 0 ? max : 1, 4), y_max = ceil((max > 0 ? max : 1) / step) * step;
	int plot_top = top + PLOT_TOP, bottom = plot_top + PLOT_HEIGHT;
	uint64_t calls = sum_buckets(d->hist.fn[fn].calls);
	char bytes[32], time[96] = "", timed[64] = "";
	struct cpu_share c;
	struct timed_ns n;
	if (d->profile.processes && profile_fn_share(&d->profile, (enum base_function)fn, &c))
		snprintf(time, sizeof time, "; %.1f%% of CPU time, %.1f ms", 100 * c.share, c.ns / 1e6);
	if (timing_fn(&d->timing, (enum base_function)fn, &n))
		snprintf(timed, sizeof timed, "; %.3g ns per call (timed)", n.mean);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"14\" font-weight=\"bold\">%s: %" PRIu64
	        " calls, %s, variant %s%s%s</text>\n",
	        MARGIN_LEFT, top + 22, base_function_names[fn], calls,
	        human_size(sum_buckets(d->hist.fn[fn].bytes), bytes, sizeof bytes), d->variant[fn], time, timed);
	draw_x_axis(out, f, bottom, plot_top);
	for (double v = 0; v <= y_max + step / 2; v += step) {
		double y = bottom - v / y_max * PLOT_HEIGHT;
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>\n", MARGIN_LEFT, y,
		        SVG_WIDTH - MARGIN_RIGHT, y);
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%g%%</text>\n",
		        MARGIN_LEFT - 6, y + 4, v);
	}
	double slot_width = px(f, 1) - px(f, 0), bar = slot_width * 0.8 / f->series;
	for (unsigned k = f->first; k <= f->last; k++)
		for (int s = 0; s < f->series; s++) {
			if (share[f->shown[s]][k] <= 0)
				continue;
			double h = share[f->shown[s]][k] / y_max * PLOT_HEIGHT;
			fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
			        px(f, k) + slot_width * 0.1 + s * bar, bottom - h, bar, h, series_colour[f->shown[s]]);
		}
	if (d->timing.processes)
		draw_per_call(out, f, per_call, plot_top);
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", MARGIN_LEFT, bottom,
	        SVG_WIDTH - MARGIN_RIGHT, bottom);
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", MARGIN_LEFT, plot_top,
	        MARGIN_LEFT, bottom);
	draw_threshold(out, f, d, fn, plot_top, bottom);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">size in bytes (log scale, "
	        "one bar per power of two, 0\u201316 in one); share of", SVG_WIDTH / 2, bottom + 30);
	for (int s = 0; s < f->series; s++)
		fprintf(out, "%s <tspan fill=\"%s\" font-weight=\"bold\">%s</tspan>", s == 0 ? "" : s + 1 == f->series ? " and" : ",",
		        series_colour[f->shown[s]], series_name[f->shown[s]]);
	fprintf(out, " in each%s</text>\n", d->timing.processes ? "; above: timed ns per call" : "");
	if (calls == 0)
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"13\" fill=\"#888\" text-anchor=\"middle\">no calls</text>\n",
		        SVG_WIDTH / 2, plot_top + PLOT_HEIGHT / 2);
}

/* The slots with anything in them, in any function: the shared x range. */
static void shared_range(const struct dump *d, struct figure *f)
{
	f->first = SLOTS;
	f->last = 0;
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			if (d->hist.fn[fn].calls[b] || d->profile.bucket_samples[fn][b]) {
				unsigned k = slot_of_bucket(b);
				f->first = k < f->first ? k : f->first;
				f->last = k > f->last ? k : f->last;
			}
	if (f->first > f->last)
		f->first = f->last = 0;
	f->series = 0;
	f->shown[f->series++] = S_CALLS;
	f->shown[f->series++] = S_BYTES;
	if (d->profile.processes)
		f->shown[f->series++] = S_CPU;
	if (d->timing.processes)
		f->shown[f->series++] = S_TIMED;
}

int write_svg(const struct dump *d, const char *path)
{
	FILE *out = fopen(path, "w");
	if (!out) {
		fprintf(stderr, "memshim report: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	struct figure f;
	shared_range(d, &f);
	char title[1200];
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	             "font-family=\"sans-serif\" data-x-range=\"%u %u\">\n"
	             "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
	        SVG_WIDTH, TITLE_HEIGHT + PANEL_HEIGHT * FN_COUNT, f.first, f.last);
	fprintf(out, "<title>memshim: %s</title>\n", dump_title(d, title, sizeof title));
	fprintf(out, "<text x=\"%d\" y=\"28\" font-size=\"18\" font-weight=\"bold\">memshim: %s</text>\n",
	        MARGIN_LEFT, title);
	for (int fn = 0; fn < FN_COUNT; fn++)
		draw_panel(out, &f, d, fn, TITLE_HEIGHT + fn * PANEL_HEIGHT);
	fprintf(out, "</svg>\n");
	if (fclose(out) != 0) {
		fprintf(stderr, "memshim report: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}
