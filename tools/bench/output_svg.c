/* memshim bench --svg: time per call and bytes per unit time against size. */
#include "config.h"

#include "dispatch/config.h"
#include "tools/bench/bench.h"

#include <math.h>
#include <string.h>

#define PANEL_W 460.0
#define PANEL_H 260.0
#define LEFT 80.0
#define GAP_X 120.0
#define STRIP_H 340.0
#define LEGEND_Y 40.0    /* the legend's first line */
#define LEGEND_LINE 18.0 /* and each further one */
#define LEGEND_CHAR 7.2  /* a character of a 12 px sans-serif name, at most */

/* A colour per variant, glibc black: the strong colours of Sasha
 * Trubetskoy's "List of 20 Simple, Distinct Colors" (the pale ones would
 * vanish on white), and a few more as far from them.  With more variants
 * than colours (peers), the colours repeat, dashed. */
static const char *const colours[] = { "#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4",
				       "#f032e6", "#469990", "#9a6324", "#800000", "#808000", "#000075",
				       "#a9a9a9", "#b8a000", "#ff69b4", "#00c49a", "#6a3d9a" };
#define COLOUR_COUNT (sizeof colours / sizeof colours[0])

/* The stroke of variant v's line: colour, width and dashes. */
static void stroke(FILE *out, const struct measure_settings *s, unsigned v)
{
	unsigned i = v - (v > s->glibc);
	if (v == s->glibc)
		fprintf(out, "stroke=\"#000000\" stroke-width=\"2.4\"");
	else
		fprintf(out, "stroke=\"%s\" stroke-width=\"1.6\"%s", colours[i % COLOUR_COUNT],
			i >= COLOUR_COUNT ? " stroke-dasharray=\"6,3\"" : "");
}

struct panel {
	double x, y;             /* top left of the plotting area */
	double x0, x1;           /* log2 of the sizes at the edges */
	double y0, y1;           /* the values at the edges (log10 when log_y) */
	bool log_y;
};

static double px(const struct panel *p, double size) { return p->x + (log2(size) - p->x0) / (p->x1 - p->x0) * PANEL_W; }

static double py(const struct panel *p, double value)
{
	double v = p->log_y ? log10(value) : value;
	return p->y + PANEL_H - (v - p->y0) / (p->y1 - p->y0) * PANEL_H;
}

static bool charted(const struct measure_result *r, int fn)
{
	return (int)r->c.fn == fn && r->c.kind == CASE_SWEEP && r->c.place != PLACE_COLD && r->c.lo > 0;
}

static double value_of(const struct measure_result *r, unsigned v, bool throughput)
{
	return throughput ? (r->median[v] > 0 ? r->mean_bytes / r->median[v] : 0) : r->median[v];
}

static void axes(FILE *out, const struct panel *p, const char *title, const char *y_label)
{
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#444\"/>\n",
		p->x, p->y, PANEL_W, PANEL_H);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-weight=\"bold\">%s</text>\n",
		p->x + PANEL_W / 2, p->y - 10, title);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">size (bytes, log scale)</text>\n",
		p->x + PANEL_W / 2, p->y + PANEL_H + 38);
	fprintf(out, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" text-anchor=\"middle\">%s</text>\n",
		p->x - 58, p->y + PANEL_H / 2, y_label);
	char n[24];
	for (int e = 0; e <= 26; e += 2) { /* 1, 4, 16 ... 64M */
		if (e < p->x0 - 1e-9 || e > p->x1 + 1e-9)
			continue;
		double x = px(p, ldexp(1, e));
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x, p->y, x,
			p->y + PANEL_H);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", x, p->y + PANEL_H + 16,
			bench_size_text((size_t)1 << e, n, sizeof n));
	}
}

static void y_ticks(FILE *out, const struct panel *p)
{
	for (int k = 0; k <= (p->log_y ? 12 : 5); k++) { /* decades, or fifths */
		double v = p->log_y ? pow(10, p->y0 + k) : p->y0 + (p->y1 - p->y0) * k / 5;
		if (p->log_y && log10(v) > p->y1 + 1e-9)
			break;
		double y = py(p, v);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", p->x, y,
			p->x + PANEL_W, y);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.3g</text>\n", p->x - 6, y + 4, v);
	}
}

static void lines(FILE *out, const struct measure_settings *s, const struct panel *p, const struct measure_result *r,
		  size_t n, int fn, bool throughput)
{
	for (unsigned v = 0; v < s->variant_count; v++) {
		fprintf(out, "<polyline fill=\"none\" ");
		stroke(out, s, v);
		fprintf(out, " points=\"");
		for (size_t i = 0; i < n; i++)
			if (charted(&r[i], fn) && value_of(&r[i], v, throughput) > 0)
				fprintf(out, "%.1f,%.1f ", px(p, (double)r[i].c.lo), py(p, value_of(&r[i], v, throughput)));
		fprintf(out, "\"/>\n");
	}
}

/* The panel's ranges: sizes on log2, times on log10, throughput linear from 0. */
static bool fit(const struct measure_settings *s, struct panel *p, const struct measure_result *r, size_t n, int fn,
		bool throughput)
{
	double lo = INFINITY, hi = 0, small = INFINITY, large = 0;
	for (size_t i = 0; i < n; i++) {
		if (!charted(&r[i], fn))
			continue;
		small = fmin(small, (double)r[i].c.lo);
		large = fmax(large, (double)r[i].c.lo);
		for (unsigned v = 0; v < s->variant_count; v++) {
			double x = value_of(&r[i], v, throughput);
			if (x > 0)
				lo = fmin(lo, x), hi = fmax(hi, x);
		}
	}
	if (large == 0 || hi == 0)
		return false;
	p->x0 = floor(log2(small) / 2) * 2;
	p->x1 = fmax(ceil(log2(large) / 2) * 2, p->x0 + 2);
	p->log_y = !throughput;
	p->y0 = throughput ? 0 : floor(log10(lo));
	p->y1 = throughput ? hi * 1.05 : fmax(ceil(log10(hi)), p->y0 + 1);
	return true;
}

static double legend_entry(const struct measure_variant *v) { return 30 + LEGEND_CHAR * strlen(v->name) + 18; }

/* The legend in lines that fit the image's width; draws it if `out`, and
 * returns how many lines it takes. */
static unsigned legend(FILE *out, const struct measure_settings *s, double width)
{
	double x = LEFT, y = LEGEND_Y;
	unsigned legend_lines = 1;
	for (unsigned v = 0; v < s->variant_count; v++) {
		double w = legend_entry(&s->variants[v]);
		if (x + w > width - 10 && x > LEFT) {
			x = LEFT;
			y += LEGEND_LINE;
			legend_lines++;
		}
		if (out) {
			fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" ", x, y - 4, x + 24, y - 4);
			stroke(out, s, v);
			fprintf(out, "/>\n<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", x + 30, y, s->variants[v].name);
		}
		x += w;
	}
	return legend_lines;
}

void report_svg(FILE *out, const struct measure_settings *s, const struct measure_result *r, size_t n)
{
	int strips = 0;
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (size_t i = 0; i < n; i++)
			if (charted(&r[i], fn)) {
				strips++;
				break;
			}
	double width = LEFT + 2 * PANEL_W + GAP_X + 40;
	double top = LEGEND_Y + legend(NULL, s, width) * LEGEND_LINE + 12; /* the panels start below the legend */
	double height = top + (strips ? strips : 1) * STRIP_H;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		     "font-family=\"sans-serif\" font-size=\"12\">\n", width, height, width, height);
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(out, "<text x=\"%.1f\" y=\"20\" font-size=\"15\">memshim bench: fixed sizes, data in L1, median time per call</text>\n",
		LEFT);
	legend(out, s, width);
	int strip = 0;
	for (int fn = 0; fn < FN_COUNT; fn++) {
		char title[64], y_label[32];
		for (int col = 0; col < 2; col++) {
			struct panel p = { .x = LEFT + col * (PANEL_W + GAP_X), .y = top + strip * STRIP_H + 20 };
			if (!fit(s, &p, r, n, fn, col == 1))
				continue;
			snprintf(title, sizeof title, "%s: %s", base_function_names[fn], col ? "throughput" : "time per call");
			snprintf(y_label, sizeof y_label, col ? "bytes per %s" : "%s per call (log scale)", s->clock.unit);
			axes(out, &p, title, y_label);
			y_ticks(out, &p);
			lines(out, s, &p, r, n, fn, col == 1);
			strip += col == 1;
		}
	}
	if (!strips)
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">no sweep results to chart</text>\n", LEFT, top + 40);
	fprintf(out, "</svg>\n");
}
