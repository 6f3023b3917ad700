/* memshim bench: the table on stdout, the CSV file and the SVG chart. */
#include "config.h"

#include "dispatch/cpu_features.h"
#include "tools/bench.h"
#include "tools/caches.h"

#include <math.h>
#include <string.h>

static const char *const function_names[FN_COUNT] = { "memcpy", "memmove", "memset" };

/* "4K", "64M" for whole multiples, else the plain number of bytes. */
static const char *size_text(size_t n, char *buf, size_t size)
{
	if (n >= (1u << 20) && n % (1u << 20) == 0)
		snprintf(buf, size, "%zuM", n >> 20);
	else if (n >= 1024 && n % 1024 == 0)
		snprintf(buf, size, "%zuK", n >> 10);
	else
		snprintf(buf, size, "%zu", n);
	return buf;
}

/* Three significant digits or so, whatever the magnitude. */
static const char *time_text(double t, char *buf, size_t size)
{
	snprintf(buf, size, t < 10 ? "%.2f" : t < 1000 ? "%.1f" : "%.0f", t);
	return buf;
}

static const char *row_label(const struct bench_case *c, char *buf, size_t size)
{
	char n[24];
	if (c->kind == CASE_SWEEP)
		snprintf(buf, size, "%s", size_text(c->lo, n, sizeof n));
	else if (c->kind == CASE_ALIGN || c->kind == CASE_ALIAS)
		snprintf(buf, size, "%s %s", size_text(c->lo, n, sizeof n), c->align);
	else
		snprintf(buf, size, "%s", c->label);
	return buf;
}

static const char *function_label(const struct bench_case *c)
{
	return c->overlap ? "memmove-overlap" : function_names[c->fn];
}

void report_header(FILE *out, const struct bench_settings *s)
{
	const struct cpu_features *f = cpu_features();
	char l3[24], span[24];
	fprintf(out, "memshim bench\n");
	fprintf(out, "clock:    %s\n", s->clock.description);
	fprintf(out, "CPU:      %s family %u model %u, L3 %s, %s\n", f->vendor, f->family, f->model,
		size_text(tool_cache_sizes()->l3, l3, sizeof l3), s->pinning);
	fprintf(out, "method:   %u rounds, variants interleaved (order rotated each round) on the same calls;\n"
		     "          cells are medians over the rounds in %s per call, \"x\" the median of the\n"
		     "          per-round ratios to glibc (< 1: faster than glibc); cold: calls spread over\n"
		     "          %s, each pass flushed from the caches (clflush) before it is timed, and\n"
		     "          %u rounds where a cold pass holds few calls (large sizes)\n",
		s->rounds, s->clock.unit, size_text(s->cold_bytes, span, sizeof span), bench_rounds_with_few_calls(s));
	for (unsigned v = 0; v < s->variant_count; v++) {
		const struct bench_variant *p = &s->variants[v];
		if (!p->peer_file)
			continue;
		fprintf(out, "peer:     %s = %s (", p->name, p->peer_file);
		const char *separator = "";
		for (int fn = 0; fn < FN_COUNT; fn++)
			if (bench_variant_has(p, fn)) {
				fprintf(out, "%s%s", separator, function_names[fn]);
				separator = ", ";
			}
		fprintf(out, ")\n");
	}
	fflush(out);
}

/* Where a case's data lives: "hot" (one room, in L1 for small calls), "l2"
 * (spread over a set of half the L2) or "cold" (flushed before each pass). */
static const char *placement(const struct bench_case *c) { return c->cold ? "cold" : c->hot_set ? "l2" : "hot"; }

static bool same_group(const struct bench_case *a, const struct bench_case *b)
{
	return a->fn == b->fn && a->kind == b->kind && a->cold == b->cold && a->hot_set == b->hot_set &&
	       a->overlap == b->overlap;
}

static void group_heading(FILE *out, const struct bench_settings *s, const struct bench_case *c)
{
	char set[24];
	if (c->hot_set)
		fprintf(out, "\n%s: %s, hot buffers spread over %s (%s per call)\n", function_label(c),
			case_kind_names[c->kind], size_text(c->hot_set, set, sizeof set), s->clock.unit);
	else
		fprintf(out, "\n%s: %s, %s buffers (%s per call)\n", function_label(c), case_kind_names[c->kind],
			c->cold ? "cold" : "hot", s->clock.unit);
	fprintf(out, "%-17s", c->kind == CASE_SWEEP ? "size" : c->kind == CASE_DIST ? "distribution" : "size offsets");
	for (unsigned v = 0; v < s->variant_count; v++)
		if (bench_variant_has(&s->variants[v], c->fn))
			fprintf(out, " %9s", s->variants[v].name);
	fprintf(out, " |");
	for (unsigned v = 0; v < s->variant_count; v++)
		if (v != s->glibc && bench_variant_has(&s->variants[v], c->fn))
			fprintf(out, " %7.7s x", s->variants[v].name);
	fprintf(out, " | glibc B/%s\n", s->clock.unit);
}

static void table_row(FILE *out, const struct bench_settings *s, const struct bench_result *r)
{
	char label[64], t[32];
	fprintf(out, "%-17s", row_label(&r->c, label, sizeof label));
	for (unsigned v = 0; v < s->variant_count; v++)
		if (bench_variant_has(&s->variants[v], r->c.fn))
			fprintf(out, " %9s", time_text(r->median[v], t, sizeof t));
	fprintf(out, " |");
	for (unsigned v = 0; v < s->variant_count; v++)
		if (v != s->glibc && bench_variant_has(&s->variants[v], r->c.fn))
			fprintf(out, " %9.2f", r->ratio[v]);
	double g = r->median[s->glibc];
	fprintf(out, " | %8.2f\n", g > 0 ? r->mean_bytes / g : 0);
}

/* The size classes, all functions together: the numbers the targets quote. */
static void class_summary(FILE *out, const struct bench_settings *s, const struct bench_result *r, size_t n)
{
	bool any = false;
	for (size_t i = 0; i < n; i++) {
		if (r[i].c.kind != CASE_CLASS)
			continue;
		if (!any) {
			fprintf(out, "\nsize classes: random sizes in the class, random offsets; median ratio to glibc\n");
			fprintf(out, "%-16s %-9s %-5s %9s |", "function", "class", "cache", "glibc");
			for (unsigned v = 0; v < s->variant_count; v++)
				if (v != s->glibc)
					fprintf(out, " %7.7s x", s->variants[v].name);
			fprintf(out, "\n");
			any = true;
		}
		char t[32];
		fprintf(out, "%-16s %-9s %-5s %9s |", function_label(&r[i].c), r[i].c.label, placement(&r[i].c),
			time_text(r[i].median[s->glibc], t, sizeof t));
		for (unsigned v = 0; v < s->variant_count; v++)
			if (v != s->glibc && bench_variant_has(&s->variants[v], r[i].c.fn))
				fprintf(out, " %9.2f", r[i].ratio[v]);
			else if (v != s->glibc) /* one table for every function: a peer lacking this one */
				fprintf(out, " %9s", "-");
		fprintf(out, "\n");
	}
}

void report_table(FILE *out, const struct bench_settings *s, const struct bench_result *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (r[i].c.kind == CASE_CLASS)
			continue;
		if (i == 0 || !same_group(&r[i - 1].c, &r[i].c))
			group_heading(out, s, &r[i].c);
		table_row(out, s, &r[i]);
	}
	class_summary(out, s, r, n);
}

void report_csv(FILE *out, const struct bench_settings *s, const struct bench_result *r, size_t n)
{
	fprintf(out, "function,variant,case,size,alignment,placement,median,p10,p90,unit,ratio_to_glibc,bytes_per_unit\n");
	for (size_t i = 0; i < n; i++) {
		const struct bench_case *c = &r[i].c;
		const char *kind = c->kind == CASE_CLASS && c->overlap ? "class-overlap" : case_kind_names[c->kind];
		for (unsigned v = 0; v < s->variant_count; v++)
			if (bench_variant_has(&s->variants[v], c->fn))
				fprintf(out, "%s,%s,%s,%s,%s,%s,%.4g,%.4g,%.4g,%s,%.4f,%.4g\n", function_names[c->fn],
					s->variants[v].name, kind, c->label, c->align, placement(c),
					r[i].median[v], r[i].p10[v], r[i].p90[v], s->clock.unit, r[i].ratio[v],
					r[i].median[v] > 0 ? r[i].mean_bytes / r[i].median[v] : 0);
	}
}

/* ---- SVG ---- */

#define PANEL_W 460.0
#define PANEL_H 260.0
#define LEFT 80.0
#define GAP_X 120.0
#define TOP 70.0
#define ROW_H 340.0

static const char *const colours[] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
				       "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22" };

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

static bool charted(const struct bench_result *r, int fn)
{
	return (int)r->c.fn == fn && r->c.kind == CASE_SWEEP && !r->c.cold && r->c.lo > 0;
}

static double value_of(const struct bench_result *r, unsigned v, bool throughput)
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
			size_text((size_t)1 << e, n, sizeof n));
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

static void lines(FILE *out, const struct bench_settings *s, const struct panel *p, const struct bench_result *r,
		  size_t n, int fn, bool throughput)
{
	for (unsigned v = 0; v < s->variant_count; v++) {
		fprintf(out, "<polyline fill=\"none\" stroke-width=\"1.6\" stroke=\"%s\" points=\"",
			colours[v % (sizeof colours / sizeof colours[0])]);
		for (size_t i = 0; i < n; i++)
			if (charted(&r[i], fn) && value_of(&r[i], v, throughput) > 0)
				fprintf(out, "%.1f,%.1f ", px(p, (double)r[i].c.lo), py(p, value_of(&r[i], v, throughput)));
		fprintf(out, "\"/>\n");
	}
}

/* The panel's ranges: sizes on log2, times on log10, throughput linear from 0. */
static bool fit(const struct bench_settings *s, struct panel *p, const struct bench_result *r, size_t n, int fn,
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

static void legend(FILE *out, const struct bench_settings *s)
{
	for (unsigned v = 0; v < s->variant_count; v++) {
		double x = LEFT + v * 110.0;
		fprintf(out, "<line x1=\"%.1f\" y1=\"40\" x2=\"%.1f\" y2=\"40\" stroke=\"%s\" stroke-width=\"3\"/>\n", x,
			x + 24, colours[v % (sizeof colours / sizeof colours[0])]);
		fprintf(out, "<text x=\"%.1f\" y=\"44\">%s</text>\n", x + 30, s->variants[v].name);
	}
}

void report_svg(FILE *out, const struct bench_settings *s, const struct bench_result *r, size_t n)
{
	int rows = 0;
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (size_t i = 0; i < n; i++)
			if (charted(&r[i], fn)) {
				rows++;
				break;
			}
	double width = LEFT + 2 * PANEL_W + GAP_X + 40, height = TOP + (rows ? rows : 1) * ROW_H;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		     "font-family=\"sans-serif\" font-size=\"12\">\n", width, height, width, height);
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(out, "<text x=\"%.1f\" y=\"20\" font-size=\"15\">memshim bench: fixed sizes, hot buffers, median of %u rounds</text>\n",
		LEFT, s->rounds);
	legend(out, s);
	int row = 0;
	for (int fn = 0; fn < FN_COUNT; fn++) {
		char title[64], y_label[32];
		for (int col = 0; col < 2; col++) {
			struct panel p = { .x = LEFT + col * (PANEL_W + GAP_X), .y = TOP + row * ROW_H + 20 };
			if (!fit(s, &p, r, n, fn, col == 1))
				continue;
			snprintf(title, sizeof title, "%s: %s", function_names[fn], col ? "throughput" : "time per call");
			snprintf(y_label, sizeof y_label, col ? "bytes per %s" : "%s per call (log scale)", s->clock.unit);
			axes(out, &p, title, y_label);
			y_ticks(out, &p);
			lines(out, s, &p, r, n, fn, col == 1);
			row += col == 1;
		}
	}
	if (!rows)
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">no sweep results to chart</text>\n", LEFT, TOP + 40);
	fprintf(out, "</svg>\n");
}
