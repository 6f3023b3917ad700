/* memshim report --svg: one panel per function, sharing one x axis (the
 * same size range for every panel, so that functions compare), one bar per
 * power of two with sizes 0-16 in one (their one-byte buckets would
 * otherwise take a third of a log axis), and round y ticks.  Calls and bytes
 * are counted; CPU time is sampled, so each time share is drawn with its 95%
 * interval, and a time bar of few samples is hatched and faded.  With timed
 * calls (MEMSHIM_TIMING) each bar group is topped with its ns per call. */
#include "tools/report/report.h"
#include "tools/util/escape.h"
#include "tools/util/output_file.h"
#include "tools/util/profile_stats.h"
#include "tools/util/units_shares.h"
#include "tools/util/timing_stats.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define SVG_WIDTH 960
#define TITLE_HEIGHT 44
#define PANEL_HEIGHT 284
#define MARGIN_LEFT 70
#define MARGIN_RIGHT 30
#define PLOT_TOP 48
#define PLOT_HEIGHT 180
#define SLOTS 46 /* slot 0: sizes 0..16; slot k: [2^(k+3), 2^(k+4)) */
/* A time bar of fewer samples than this is hatched and faded: its 95%
 * interval is then wider than about +-60% of it (1.96 / sqrt(10)), so its
 * height says little beyond "some time". */
#define FEW_SAMPLES 10
#define TIME_SERIES 2

static const char *const series_colour[3] = { "#1f5fbf", "#e07000", "#2a9d3a" };
static const char *const series_name[3] = { "calls", "bytes", "CPU time" };

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

/* Each series' share (percent) per slot, for function fn: of its calls, of
 * its bytes, of its CPU time, so that each series adds up to 100%. */
/* The timed ns per call of each slot of fn; 0 where none was timed. */
static void slot_per_call(const struct dump *d, int fn, double per_call[SLOTS])
{
	double timed[SLOTS] = { 0 }, ns[SLOTS] = { 0 };
	for (unsigned b = 0; b < HIST_BUCKETS; b++) {
		timed[slot_of_bucket(b)] += (double)d->timing.calls[fn][b];
		ns[slot_of_bucket(b)] += (double)d->timing.ns[fn][b];
	}
	for (unsigned k = 0; k < SLOTS; k++)
		per_call[k] = timed[k] ? ns[k] / timed[k] : 0;
}

/* Each slot's timed ns per call, above its bars. */
static void draw_per_call(FILE *out, double x, double ns, int plot_top)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" fill=\"#8a2be2\" text-anchor=\"middle\">%.*f</text>\n", x,
	        plot_top - 2, ns < 10 ? 1 : 0, ns);
}

static void slot_shares(const struct dump *d, int fn, double share[3][SLOTS])
{
	const uint64_t *tables[3] = { d->hist.fn[fn].calls, d->hist.fn[fn].bytes, d->profile.bucket_ns[fn] };
	for (int s = 0; s < 3; s++) {
		uint64_t all = sum_buckets(tables[s]);
		for (unsigned k = 0; k < SLOTS; k++)
			share[s][k] = 0;
		for (unsigned b = 0; b < HIST_BUCKETS && all; b++)
			share[s][slot_of_bucket(b)] += 100.0 * (double)tables[s][b] / (double)all;
	}
}

/* The time series' samples per slot, of function fn. */
static void slot_samples(const struct dump *d, int fn, uint64_t samples[SLOTS])
{
	for (unsigned k = 0; k < SLOTS; k++)
		samples[k] = 0;
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		samples[slot_of_bucket(b)] += d->profile.bucket_samples[fn][b];
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
	int series;           /* 2, or 3 with a profile */
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

/* A bar; a time bar of few samples hatched and faded. */
static void draw_bar(FILE *out, double x, double width, int bottom, double h, const char *colour, bool few)
{
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"%s/>\n", x, bottom - h,
	        width, h, few ? "url(#few-samples)" : colour, few ? " class=\"few-samples\"" : "");
}

/* The 95% interval of a time share (percent) from its slot's samples out
 * of the function's, as a whisker clipped to the plot. */
static void draw_interval(FILE *out, double x, int bottom, double y_max, double k, double n, double share)
{
	double low, high;
	profile_interval(k, n, &low, &high);
	low = fmin(100 * low, share);
	high = fmin(fmax(100 * high, share), y_max);
	if (high <= 0)
		return;
	double y_low = bottom - low / y_max * PLOT_HEIGHT, y_high = bottom - high / y_max * PLOT_HEIGHT;
	fprintf(out, "<path class=\"interval\" d=\"M%.1f %.1fV%.1fM%.1f %.1fh6M%.1f %.1fh6\" stroke=\"#145a20\" "
	        "fill=\"none\"/>\n", x, y_low, y_high, x - 3, y_low, x - 3, y_high);
}

/* The panel's time, sampled and timed, on a line of its own under its
 * title: on one line with it they ran past the right edge. */
static void draw_panel_times(FILE *out, const struct figure *f, const struct dump *d, int fn, int y)
{
	char time[96] = "", timed[64] = "";
	struct cpu_share c;
	struct timed_ns n;
	if (f->series == 3 && profile_fn_share(&d->profile, (enum base_function)fn, &c))
		snprintf(time, sizeof time, "%.1f%% of CPU time (95%%: %.1f\u2013%.1f%%), %.1f ms", 100 * c.share,
			 100 * c.low, 100 * c.high, c.ns / 1e6);
	if (timing_fn(&d->timing, (enum base_function)fn, &n))
		snprintf(timed, sizeof timed, "%.3g ns per call (timed)", n.mean);
	if (time[0] || timed[0])
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\">%s%s%s</text>\n", MARGIN_LEFT, y, time,
		        time[0] && timed[0] ? "; " : "", timed);
}

static void draw_panel(FILE *out, const struct figure *f, const struct dump *d, int fn, int top)
{
	double share[3][SLOTS], max = 0;
	uint64_t samples[SLOTS], fn_samples = 0;
	slot_shares(d, fn, share);
	slot_samples(d, fn, samples);
	for (unsigned k = 0; k < SLOTS; k++)
		fn_samples += samples[k];
	for (int s = 0; s < f->series; s++)
		for (unsigned k = f->first; k <= f->last; k++)
			max = fmax(max, share[s][k]);
	double step = nice_step(max > 0 ? max : 1, 4), y_max = ceil((max > 0 ? max : 1) / step) * step;
	int plot_top = top + PLOT_TOP, bottom = plot_top + PLOT_HEIGHT;
	uint64_t calls = sum_buckets(d->hist.fn[fn].calls);
	char bytes[32];
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"14\" font-weight=\"bold\">%s: %" PRIu64
	        " calls, %s, variant ",
	        MARGIN_LEFT, top + 20, base_function_names[fn], calls,
	        human_size(sum_buckets(d->hist.fn[fn].bytes), bytes, sizeof bytes));
	write_escaped(out, d->variant[fn], ESCAPE_XML);
	fputs("</text>\n", out);
	draw_panel_times(out, f, d, fn, top + 36);
	draw_x_axis(out, f, bottom, plot_top);
	for (double v = 0; v <= y_max + step / 2; v += step) {
		double y = bottom - v / y_max * PLOT_HEIGHT;
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>\n", MARGIN_LEFT, y,
		        SVG_WIDTH - MARGIN_RIGHT, y);
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%g%%</text>\n",
		        MARGIN_LEFT - 6, y + 4, v);
	}
	double slot_width = px(f, 1) - px(f, 0), bar = slot_width * 0.8 / f->series, per_call[SLOTS];
	slot_per_call(d, fn, per_call);
	for (unsigned k = f->first; k <= f->last; k++) {
		if (per_call[k] > 0)
			draw_per_call(out, px(f, k + 0.5), per_call[k], plot_top);
		for (int s = 0; s < f->series; s++) {
			double x = px(f, k) + slot_width * 0.1 + s * bar;
			if (share[s][k] > 0)
				draw_bar(out, x, bar, bottom, share[s][k] / y_max * PLOT_HEIGHT, series_colour[s],
				         s == TIME_SERIES && samples[k] < FEW_SAMPLES);
			if (s == TIME_SERIES && samples[k]) /* an empty slot: no whisker, as no bar */
				draw_interval(out, x + bar / 2, bottom, y_max, (double)samples[k], (double)fn_samples, share[s][k]);
		}
	}
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", MARGIN_LEFT, bottom,
	        SVG_WIDTH - MARGIN_RIGHT, bottom);
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", MARGIN_LEFT, plot_top,
	        MARGIN_LEFT, bottom);
	draw_threshold(out, f, d, fn, plot_top, bottom);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">size in bytes (log scale, "
	        "one bar per power of two, 0\u201316 in one); share of", SVG_WIDTH / 2, bottom + 30);
	for (int s = 0; s < f->series; s++)
		fprintf(out, "%s <tspan fill=\"%s\" font-weight=\"bold\">%s</tspan>", s == 0 ? "" : s + 1 == f->series ? " and" : ",",
		        series_colour[s], series_name[s]);
	fprintf(out, " in each%s</text>\n", d->timing.processes ? "; above the bars: timed ns per call" : "");
	if (f->series == 3)
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">CPU time: sampled; each bar "
		        "with its 95%% interval, hatched and faded below %d samples</text>\n", SVG_WIDTH / 2, bottom + 44,
		        FEW_SAMPLES);
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
	f->series = d->profile.processes ? 3 : 2;
}

int write_svg(const struct dump *d, const char *path, bool replace)
{
	struct output_file o;
	FILE *out = output_open(&o, "report", path);
	if (!out)
		return -1;
	struct figure f;
	shared_range(d, &f);
	char title[1200];
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	             "font-family=\"sans-serif\" data-x-range=\"%u %u\">\n"
	             "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
	        SVG_WIDTH, TITLE_HEIGHT + PANEL_HEIGHT * FN_COUNT, f.first, f.last);
	fputs("<title>memshim: ", out);
	write_escaped(out, dump_title(d, title, sizeof title), ESCAPE_XML); /* the program's name is the dump's */
	fputs("</title>\n", out);
	fprintf(out, "<defs><pattern id=\"few-samples\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
	             "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"%s\" fill-opacity=\"0.3\"/>"
	             "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"%s\" stroke-width=\"2\"/></pattern></defs>\n",
	        series_colour[TIME_SERIES], series_colour[TIME_SERIES]);
	fprintf(out, "<text x=\"%d\" y=\"28\" font-size=\"18\" font-weight=\"bold\">memshim: ", MARGIN_LEFT);
	write_escaped(out, title, ESCAPE_XML);
	fputs("</text>\n", out);
	for (int fn = 0; fn < FN_COUNT; fn++)
		draw_panel(out, &f, d, fn, TITLE_HEIGHT + fn * PANEL_HEIGHT);
	fprintf(out, "</svg>\n");
	return output_finish(&o, "report", replace) ? 0 : -1;
}
