/* memshim bench: the table on stdout and the CSV file. */
#include "config.h"

#include "dispatch/config.h"
#include "dispatch/cpu_features.h"
#include "tools/bench/bench.h"
#include "tools/bench/csv.h"
#include "tools/util/hazards.h"
#include "tools/measure/caches.h"
#include "tools/util/units_shares.h"
#include "tools/calibrate/stub_probe.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* "4K", "64M" for whole multiples, else the plain number of bytes. */
const char *bench_size_text(size_t n, char *buf, size_t size)
{
	if (n >= (1u << 20) && n % (1u << 20) == 0)
		snprintf(buf, size, "%zuM", n >> 20);
	else if (n >= 1024 && n % 1024 == 0)
		snprintf(buf, size, "%zuK", n >> 10);
	else
		snprintf(buf, size, "%zu", n);
	return buf;
}

/* A time per call for the glibc column, in at most 8 characters: "2.7 ns",
 * "58 ms" (report's helper) for ns, "58.5M" for cycles. */
static const char *time_text(const struct measure_settings *s, double t, char *buf, size_t size)
{
	if (strcmp(s->clock.unit, "ns") == 0)
		return human_duration(t, buf, size);
	if (t >= 1e9)
		snprintf(buf, size, "%.3gG", t / 1e9);
	else if (t >= 1e6)
		snprintf(buf, size, "%.3gM", t / 1e6);
	else if (t >= 1e4)
		snprintf(buf, size, "%.3gk", t / 1e3);
	else
		snprintf(buf, size, t < 10 ? "%.2f" : t < 1000 ? "%.1f" : "%.0f", t);
	return buf;
}

static const char *line_label(const struct measure_case *c, char *buf, size_t size)
{
	char n[24];
	if (c->kind == CASE_SWEEP)
		snprintf(buf, size, "%s", bench_size_text(c->lo, n, sizeof n));
	else if (c->kind == CASE_ALIGN || c->kind == CASE_ALIAS || c->kind == CASE_HAZARD)
		snprintf(buf, size, "%s %s", bench_size_text(c->lo, n, sizeof n), c->align);
	else
		snprintf(buf, size, "%s", c->label);
	return buf;
}

static const char *function_label(const struct measure_case *c)
{
	return c->overlap ? "memmove-overlap" : base_function_names[c->fn];
}

static const char *placement(const struct measure_case *c) { return placement_names[c->place]; }

/* ---- the text: tables of ratios that fit TEXT_WIDTH columns ---- */

/* Every table fits this many columns; what does not (each variant's own
 * time, p10, p90) is in --csv. */
#define TEXT_WIDTH 100
#define LABEL_MAX 20    /* line labels longer than this widen nothing: their line does */
#define GLIBC_WIDTH 9   /* " 58.5 ms" */
#define RATIO_WIDTH 5   /* " 0.42", " 10.3", "  103" */

/* A column's heading: the variant's name where every column's name fits,
 * else a letter (A, B, ...) that the header's key names. */
static bool columns_by_letter;

static unsigned column_width(const struct measure_settings *s, unsigned v)
{
	size_t name = strlen(s->variants[v].name) + 1;
	return columns_by_letter || name < RATIO_WIDTH ? RATIO_WIDTH : (unsigned)name;
}

static void column_heading(FILE *out, const struct measure_settings *s, unsigned v)
{
	unsigned letter = v - (v > s->glibc);
	if (columns_by_letter)
		fprintf(out, " %*c", RATIO_WIDTH - 1, 'A' + letter);
	else
		fprintf(out, " %*s", (int)column_width(s, v) - 1, s->variants[v].name);
}

/* Decides the headings: names if a table of every variant fits with them. */
static void choose_headings(const struct measure_settings *s)
{
	unsigned width = 17 + GLIBC_WIDTH + (s->aa ? RATIO_WIDTH : 0);
	columns_by_letter = false;
	for (unsigned v = 0; v < s->variant_count; v++)
		if (v != s->glibc)
			width += column_width(s, v);
	columns_by_letter = width > TEXT_WIDTH;
}

/* "columns:  A fsrm, B erms, ...", wrapped at TEXT_WIDTH. */
static void print_key(FILE *out, const struct measure_settings *s)
{
	unsigned used = (unsigned)fprintf(out, "columns: ");
	for (unsigned v = 0; v < s->variant_count; v++) {
		if (v == s->glibc)
			continue;
		bool last = v + 1 == s->variant_count || (v + 2 == s->variant_count && s->glibc == v + 1);
		unsigned item = (unsigned)strlen(s->variants[v].name) + 5;
		if (used + item > TEXT_WIDTH)
			used = (unsigned)fprintf(out, "\n         ") - 1;
		used += (unsigned)fprintf(out, " %c %s%s", 'A' + (v - (v > s->glibc)), s->variants[v].name, last ? "" : ",");
	}
	fprintf(out, "\n");
}

void report_header(FILE *out, const struct measure_settings *s)
{
	const struct cpu_features *f = cpu_features();
	char l3[24], span[24];
	choose_headings(s);
	fprintf(out, "memshim bench\n");
	fprintf(out, "clock:    %s\n", s->clock.description);
	fprintf(out, "CPU:      %s family %u model %u, L3 %s, %s\n", f->vendor, f->family, f->model,
		bench_size_text(tool_cache_sizes()->l3, l3, sizeof l3), s->pinning);
	if (s->stop.min_pairs == s->stop.max_pairs)
		fprintf(out, "method:   %u pairs of batches a variant and case: the variant and glibc on the same\n",
			s->stop.max_pairs);
	else
		fprintf(out, "method:   pairs of batches, the variant and glibc on the same calls in a random order,\n"
			     "          from %u until the interval is narrower than %.1f%% or %.2g s a variant (at\n"
			     "          most %u); the ratio: the median of the pairs' ratios (< 1: faster than glibc),\n"
			     "          its ~95%% interval from their order statistics; glibc's column: its median\n"
			     "          time per call; A/A: glibc paired with itself, the instrument's own reading;\n",
			s->stop.min_pairs, 100 * s->stop.width, s->stop.seconds, s->stop.max_pairs);
	fprintf(out, "          each batch runs its calls once untimed, then timed in an order drawn anew.\n"
		     "          L1: one room; L2: spread over half the L2; L3: spread over %u L2s, then\n"
		     "          other data read through L1 and L2; cold: spread over %s, each batch's\n"
		     "          lines flushed (clflush) before it\n",
		MEASURE_L3_SETS, bench_size_text(s->cold_bytes, span, sizeof span));
	for (unsigned v = 0; v < s->variant_count; v++) {
		const struct measure_variant *p = &s->variants[v];
		if (!p->peer_file)
			continue;
		fprintf(out, "peer:     %s = %s (", p->name, p->peer_file);
		const char *separator = "";
		for (int fn = 0; fn < FN_COUNT; fn++)
			if (measure_variant_has(p, fn)) {
				fprintf(out, "%s%s", separator, base_function_names[fn]);
				separator = ", ";
			}
		fprintf(out, ")\n");
	}
	if (columns_by_letter)
		print_key(out, s);
	fflush(out);
}

static bool same_group(const struct measure_case *a, const struct measure_case *b)
{
	return a->fn == b->fn && a->kind == b->kind && a->place == b->place && a->overlap == b->overlap;
}

/* A class line's label: "0-16 B L1", "32-256 KiB cold". */
static const char *class_label(const struct measure_case *c, char *buf, size_t size)
{
	snprintf(buf, size, "%s %s", c->label, placement(c));
	return buf;
}

static const char *label_of(const struct measure_case *c, char *buf, size_t size)
{
	return c->kind == CASE_CLASS ? class_label(c, buf, size) : line_label(c, buf, size);
}

/* The widest label of lines[0..n), at least `heading`'s, at most LABEL_MAX. */
static unsigned label_width(const struct measure_result *const *lines, size_t n, const char *heading)
{
	size_t width = strlen(heading);
	for (size_t i = 0; i < n; i++) {
		char label[96];
		size_t len = strlen(label_of(&lines[i]->c, label, sizeof label));
		width = len > width ? len : width;
	}
	return (unsigned)(width < LABEL_MAX ? width : LABEL_MAX);
}

static void print_ratio(FILE *out, double x)
{
	if (!(x > 0))
		fprintf(out, " %*s", RATIO_WIDTH - 1, "-");
	else
		fprintf(out, x < 9.995 ? " %*.2f" : x < 99.95 ? " %*.1f" : " %*.0f", RATIO_WIDTH - 1, x);
}

/* The columns of fn from `first` on that fit beside a label of `label`
 * columns; returns the one after the last. */
static unsigned block_end(const struct measure_settings *s, enum base_function fn, unsigned first, unsigned label)
{
	unsigned width = label + GLIBC_WIDTH + (s->aa ? RATIO_WIDTH : 0), v = first;
	for (; v < s->variant_count; v++) {
		if (v == s->glibc || !measure_variant_has(&s->variants[v], fn))
			continue;
		if (width + column_width(s, v) > TEXT_WIDTH && v > first)
			break;
		width += column_width(s, v);
	}
	return v;
}

/* lines[0..n) of one function as a table: label, glibc's time, each
 * variant's ratio; in blocks of columns when they do not fit side by side. */
static void ratio_table(FILE *out, const struct measure_settings *s, const struct measure_result *const *lines, size_t n,
			const char *heading)
{
	enum base_function fn = lines[0]->c.fn;
	unsigned label = label_width(lines, n, heading);
	for (unsigned first = 0, end; first < s->variant_count; first = end) {
		end = block_end(s, fn, first, label);
		fprintf(out, "%-*s %*s", (int)label, heading, GLIBC_WIDTH - 1, "glibc");
		if (s->aa)
			fprintf(out, " %*s", RATIO_WIDTH - 1, "A/A");
		for (unsigned v = first; v < end; v++)
			if (v != s->glibc && measure_variant_has(&s->variants[v], fn))
				column_heading(out, s, v);
		fprintf(out, "\n");
		for (size_t i = 0; i < n; i++) {
			char text[96], t[32];
			fprintf(out, "%-*s %*s", (int)label, label_of(&lines[i]->c, text, sizeof text), GLIBC_WIDTH - 1,
				time_text(s, lines[i]->median[s->glibc], t, sizeof t));
			if (s->aa)
				print_ratio(out, lines[i]->aa.ratio);
			for (unsigned v = first; v < end; v++)
				if (v != s->glibc && measure_variant_has(&s->variants[v], fn))
					print_ratio(out, lines[i]->ratio[v]);
			fprintf(out, "\n");
		}
	}
}

static void group_heading(FILE *out, const struct measure_case *c)
{
	fprintf(out, "\n%s: %s, data in %s\n", function_label(c), case_kind_names[c->kind], placement(c));
}

static const char *first_column(const struct measure_case *c)
{
	return c->kind == CASE_SWEEP ? "size" : c->kind == CASE_DIST ? "distribution" : "size offsets";
}

static bool same_class_table(const struct measure_case *a, const struct measure_case *b)
{
	return a->kind == CASE_CLASS && b->kind == CASE_CLASS && a->fn == b->fn && a->overlap == b->overlap;
}

/* Whether r[i] is the first size class of its function (memmove with
 * overlap apart): where its table and its summary go. */
static bool first_class(const struct measure_result *r, size_t i)
{
	return r[i].c.kind == CASE_CLASS && !(i > 0 && same_class_table(&r[i - 1].c, &r[i].c));
}

/* The size classes of the function of r[i], into lines (room for n). */
static size_t class_lines(const struct measure_result *r, size_t n, size_t i, const struct measure_result **lines)
{
	size_t k = 0;
	for (size_t j = 0; j < n; j++)
		if (same_class_table(&r[j].c, &r[i].c))
			lines[k++] = &r[j];
	return k;
}

static void class_tables(FILE *out, const struct measure_settings *s, const struct measure_result *r, size_t n,
			 const struct measure_result **lines)
{
	for (size_t i = 0; i < n; i++)
		if (first_class(r, i)) {
			fprintf(out, "\n%s: size classes, random sizes in the class, random offsets\n",
				function_label(&r[i].c));
			ratio_table(out, s, lines, class_lines(r, n, i, lines), "class");
		}
}

/* ---- the summary: per function, the fastest variant in each size class ---- */

/* Whether column v of r is faster (or slower) than glibc beyond noise: its
 * interval wholly beyond 1 and beyond the case's A/A deviation. */
static bool faster_beyond_noise(const struct measure_result *r, unsigned v)
{
	return r->ratio_high[v] < 1 - measure_aa_deviation(r);
}

static bool slower_beyond_noise(const struct measure_result *r, unsigned v)
{
	return r->ratio_low[v] > 1 + measure_aa_deviation(r);
}

/* The variant other than glibc with the least ratio on a line, among those
 * faster than glibc beyond noise if `beyond_noise`; -1 if none. */
static int fastest(const struct measure_settings *s, const struct measure_result *r, bool beyond_noise)
{
	int best = -1;
	for (unsigned v = 0; v < s->variant_count; v++)
		if (v != s->glibc && measure_variant_has(&s->variants[v], r->c.fn) && r->ratio[v] > 0 &&
		    (!beyond_noise || faster_beyond_noise(r, v)) && (best < 0 || r->ratio[v] < r->ratio[best]))
			best = (int)v;
	return best;
}

/* The variant with the least geometric mean ratio over lines[0..k). */
static int best_overall(const struct measure_settings *s, const struct measure_result *const *lines, size_t k,
			double *mean)
{
	int best = -1;
	for (unsigned v = 0; v < s->variant_count; v++) {
		if (v == s->glibc || !measure_variant_has(&s->variants[v], lines[0]->c.fn))
			continue;
		double logs = 0;
		for (size_t i = 0; i < k; i++)
			logs += log(lines[i]->ratio[v] > 0 ? lines[i]->ratio[v] : 1);
		if (best < 0 || logs / k < *mean) {
			best = (int)v;
			*mean = logs / k;
		}
	}
	*mean = exp(*mean);
	return best;
}

static void summary_line(FILE *out, const struct measure_settings *s, const struct measure_result *r)
{
	char label[96], t[32];
	int v = fastest(s, r, true), least = fastest(s, r, false);
	fprintf(out, "  %-18s %8s  ", class_label(&r->c, label, sizeof label),
		time_text(s, r->median[s->glibc], t, sizeof t));
	if (v >= 0)
		fprintf(out, "%-15s %.2fx (%.2f..%.2f)\n", s->variants[v].name, r->ratio[v], r->ratio_low[v],
			r->ratio_high[v]);
	else if (least >= 0)
		fprintf(out, "none beyond noise; the least: %s %.2fx (%.2f..%.2f)\n", s->variants[least].name,
			r->ratio[least], r->ratio_low[least], r->ratio_high[least]);
	else
		fprintf(out, "-\n");
}

/* Where variant v is slower than glibc beyond noise, wrapped at
 * TEXT_WIDTH; `used` columns are taken already. */
static void print_losses(FILE *out, unsigned used, unsigned v, const struct measure_result *const *lines, size_t k)
{
	unsigned losses = 0;
	used += (unsigned)fprintf(out, " slower than glibc beyond noise in:");
	for (size_t i = 0; i < k; i++) {
		char label[96], item[128];
		if (!slower_beyond_noise(lines[i], v))
			continue;
		int len = snprintf(item, sizeof item, " %s (%.2fx)", class_label(&lines[i]->c, label, sizeof label),
				   lines[i]->ratio[v]);
		if (losses)
			used += (unsigned)fprintf(out, ",");
		if (used + (unsigned)len > TEXT_WIDTH)
			used = (unsigned)fprintf(out, "\n   ") - 1;
		used += (unsigned)fprintf(out, "%s", item);
		losses++;
	}
	fprintf(out, "%s\n", losses ? "" : " none");
}

static void function_summary(FILE *out, const struct measure_settings *s, const struct measure_result *r, size_t n,
			     size_t first, const struct measure_result **lines)
{
	size_t k = class_lines(r, n, first, lines);
	double mean = 0;
	fprintf(out, "\n%s\n  %-18s %8s  %-15s %s\n", function_label(&r[first].c), "class", "glibc", "fastest",
		"x glibc (95% interval)");
	for (size_t i = 0; i < k; i++)
		summary_line(out, s, lines[i]);
	int v = best_overall(s, lines, k, &mean);
	if (v < 0)
		return;
	fprintf(out, "  one variant for every class: %s, %.2fx glibc's time (geometric mean over the\n",
		s->variants[v].name, mean);
	print_losses(out, (unsigned)fprintf(out, "  classes);"), (unsigned)v, lines, k);
}

/* What the summary rests on, and where tune's calibration (which chooses
 * the default's bands) differs: its placements, its margins, the stub. */
static void basis(FILE *out, const struct measure_settings *s, const struct measure_result *r, size_t n)
{
	bool every_placement = false, stub = false, read_back = false, in_use = false;
	for (size_t i = 0; i < n; i++) {
		every_placement |= r[i].c.kind == CASE_CLASS && r[i].c.place == PLACE_L3;
		read_back |= r[i].c.read_back;
		in_use |= r[i].c.in_use;
	}
	for (unsigned v = 0; v < s->variant_count; v++)
		stub |= strcmp(s->variants[v].name, STUB_PROBE_NAME) == 0;
	fprintf(out, every_placement ? "Each class's data in L1, L2, L3 and cold.\n"
				     : "Each class's data in one placement (L1 to 32 KiB, cold above; --every-placement\n"
				       "times all four).\n");
	if (in_use)
		fprintf(out, "Each call's source is written just before it and its destination read after it\n"
			     "(--in-use).\n");
	else
		fprintf(out, read_back ? "Each call of a case from 512 B on is followed by a read of its destination, as in\n"
				 "the calibration (--read-back).\n"
			       : "No destination is read after its call; the calibration reads those of its cases\n"
				 "from 512 B on (--read-back does).\n");
	fprintf(out, "\"Beyond noise\": the interval wholly beyond 1 and beyond the case's A/A deviation.\n");
	fprintf(out, stub ? "The variants are called directly; \"stub\" is glibc behind a copy of the exported stub\n"
			    "that a preloaded program's calls go through: its distance from glibc is the stub's cost.\n"
			  : "The variants are called directly, without the exported stub that a preloaded program's\n"
			    "calls go through (--stub-probe times its cost).\n");
}

static void summary(FILE *out, const struct measure_settings *s, const struct measure_result *r, size_t n,
		    const struct measure_result **lines)
{
	bool any = false;
	for (size_t i = 0; i < n; i++) {
		if (!first_class(r, i))
			continue;
		if (!any)
			fprintf(out, "\nSummary: in each size class the fastest variant of those faster than glibc beyond\n"
				     "noise, and its time as a multiple of glibc's (the median of the pairs' ratios and\n"
				     "its ~95%% interval); then the one variant that does best over all the classes, and\n"
				     "where it loses to glibc.\n");
		if (!any)
			basis(out, s, r, n);
		any = true;
		function_summary(out, s, r, n, i, lines);
	}
	if (!any)
		fprintf(out, "\n(no size classes timed: the summary by size class needs --cases class)\n");
}

/* Where the processes of a run with --processes disagree beyond their
 * intervals: each such column and case, the first few. */
static void disagreements(FILE *out, const struct measure_settings *s, const struct measure_result *r, size_t n)
{
	unsigned count = 0;
	for (size_t i = 0; i < n; i++)
		for (unsigned v = 0; v <= MEASURE_MAX_COLUMNS; v++) {
			bool aa = v == MEASURE_MAX_COLUMNS;
			if (!r[i].disagree[v] || (!aa && (v >= s->variant_count || v == s->glibc)))
				continue;
			char label[96];
			if (count++ < 8)
				fprintf(out, "%s  %s, %s %s: %.3f (%.3f..%.3f over the processes)\n",
					count == 1 ? "  where the processes disagree beyond their intervals:\n" : "",
					aa ? "A/A" : s->variants[v].name, function_label(&r[i].c),
					label_of(&r[i].c, label, sizeof label), aa ? r[i].aa.ratio : r[i].ratio[v],
					aa ? r[i].aa.low : r[i].ratio_low[v], aa ? r[i].aa.high : r[i].ratio_high[v]);
		}
	if (count)
		fprintf(out, "  %u in all, of cases measured in %u processes each\n", count, r[0].processes);
	else
		fprintf(out, "  the %u processes agreed within their intervals in every case\n", r[0].processes);
}

/* The instrument's resolution in this run: the widest A/A deviation, where,
 * and the widest interval of any variant. */
static void resolution(FILE *out, const struct measure_settings *s, const struct measure_result *r, size_t n)
{
	size_t worst = n, widest = n;
	unsigned wv = 0;
	double aa = 0, width = 0;
	char label[96], wlabel[96];
	for (size_t i = 0; i < n; i++) {
		if (r[i].aa.pairs && (worst == n || measure_aa_deviation(&r[i]) > aa))
			worst = i, aa = measure_aa_deviation(&r[i]);
		for (unsigned v = 0; v < s->variant_count; v++)
			if (v != s->glibc && r[i].pairs[v] && r[i].ratio_high[v] - r[i].ratio_low[v] > width)
				widest = i, wv = v, width = r[i].ratio_high[v] - r[i].ratio_low[v];
	}
	if (worst < n)
		fprintf(out, "\nResolution: glibc against itself (A/A) strayed at most %.1f%% from 1 over %zu cases\n"
			     "  (widest: %s %s, %.3f, %.3f..%.3f over %u pairs)\n", 100 * aa, n,
			function_label(&r[worst].c), label_of(&r[worst].c, label, sizeof label), r[worst].aa.ratio,
			r[worst].aa.low, r[worst].aa.high, r[worst].aa.pairs);
	if (widest < n)
		fprintf(out, "  the widest interval of a variant: %s, %s %s,\n    %.3f..%.3f over %u pairs\n",
			s->variants[wv].name, function_label(&r[widest].c), label_of(&r[widest].c, wlabel, sizeof wlabel),
			r[widest].ratio_low[wv], r[widest].ratio_high[wv], r[widest].pairs[wv]);
	if (n && r[0].processes > 1)
		disagreements(out, s, r, n);
	else if (n)
		fprintf(out, "  one process: what is fixed for a process's life (where its buffers lie) is not in these\n"
			     "  intervals; --processes 3 (the default without --quick) widens them to cover it\n");
}

/* ---- the hazards: per function and hazard, who falls off its cliff ---- */

/* The least ratio to glibc in a hazard case over memshim's variants and
 * glibc's (1), peers left out: the best a default could do there; its
 * column into *best (glibc's for glibc). */
static double best_in_case(const struct measure_settings *s, const struct measure_result *r, unsigned *best)
{
	double least = 1;
	*best = s->glibc;
	for (unsigned v = 0; v < s->variant_count; v++)
		if (!s->variants[v].peer_file && measure_variant_has(&s->variants[v], r->c.fn) && r->ratio[v] > 0 &&
		    r->ratio[v] < least)
			least = r->ratio[v], *best = v;
	return least;
}

/* A column's ratio in a case; glibc's own is 1. */
static double column_ratio(const struct measure_settings *s, const struct measure_result *r, unsigned v)
{
	return v == s->glibc ? 1 : r->ratio[v];
}

/* One function's one hazard: glibc's worst case against the best variant
 * there, with the case's A/A, then every column that some case puts
 * beyond HAZARD_LOSS_RATIO of the best. */
static void hazard_line(FILE *out, const struct measure_settings *s, const struct measure_result *r, size_t n,
			enum base_function fn, const struct hazard *h)
{
	const struct measure_result *worst = NULL;
	double worst_x = 0;
	bool over[MEASURE_MAX_COLUMNS] = { false }, any = false;
	for (size_t i = 0; i < n; i++) {
		bool judged;
		if (r[i].c.kind != CASE_HAZARD || r[i].c.fn != fn || hazard_of_column(r[i].c.align, &judged) != h || !judged)
			continue;
		unsigned best;
		double least = best_in_case(s, &r[i], &best);
		if (1 / least > worst_x)
			worst_x = 1 / least, worst = &r[i];
		for (unsigned v = 0; v < s->variant_count; v++)
			if (measure_variant_has(&s->variants[v], fn) && column_ratio(s, &r[i], v) > HAZARD_LOSS_RATIO * least)
				over[v] = any = true;
	}
	if (!worst)
		return;
	char size[24];
	unsigned best;
	best_in_case(s, worst, &best);
	fprintf(out, "  %-8s %-9s glibc %.2fx the best (%s at %s %s: %.3fx glibc's, A/A %.3f)\n", base_function_names[fn],
		h->name, worst_x, s->variants[best].name, bench_size_text(worst->c.lo, size, sizeof size),
		strchr(worst->c.align, ':') + 1, worst->ratio[best], worst->aa.ratio);
	fprintf(out, "  %-8s %-9s over %.1fx the best somewhere:", "", "", HAZARD_LOSS_RATIO);
	for (unsigned v = 0; v < s->variant_count; v++)
		if (over[v])
			fprintf(out, " %s", s->variants[v].name);
	fprintf(out, "%s\n", any ? "" : " none");
}

static void hazard_summary(FILE *out, const struct measure_settings *s, const struct measure_result *r, size_t n)
{
	bool timed = false;
	for (size_t i = 0; i < n; i++)
		timed |= r[i].c.kind == CASE_HAZARD;
	if (!timed)
		return;
	fprintf(out, "\nHazards: in each, glibc's worst case as a multiple of the best variant's time there,\n"
		     "and the columns more than %.1fx the best in some case (no default may be: cpu-row's rule).\n",
		HAZARD_LOSS_RATIO);
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (unsigned h = 0; h < hazard_count; h++)
			hazard_line(out, s, r, n, (enum base_function)fn, &hazards[h]);
}

void report_table(FILE *out, const struct measure_settings *s, const struct measure_result *r, size_t n)
{
	const struct measure_result **lines = malloc((n ? n : 1) * sizeof *lines); /* a table's lines */
	if (!lines) {
		fprintf(out, "(out of memory: no table)\n");
		return;
	}
	for (size_t i = 0, end; i < n; i = end) {
		end = i + 1;
		if (r[i].c.kind == CASE_CLASS)
			continue;
		lines[0] = &r[i];
		while (end < n && same_group(&r[i].c, &r[end].c))
			lines[end - i] = &r[end], end++;
		group_heading(out, &r[i].c);
		ratio_table(out, s, lines, end - i, first_column(&r[i].c));
	}
	class_tables(out, s, r, n, lines);
	summary(out, s, r, n, lines);
	hazard_summary(out, s, r, n);
	resolution(out, s, r, n);
	free(lines);
}

void report_csv(FILE *out, const struct measure_settings *s, const struct measure_result *r, size_t n)
{
	fputs(BENCH_CSV_HEADER, out);
	/* bench's variants are the library's, and read its thresholds */
	size_t movsb = 0, stosb = 0, movsb_stop = 0;
	bench_library_thresholds(&movsb, &stosb, &movsb_stop);
	for (size_t i = 0; i < n; i++) {
		const struct measure_case *c = &r[i].c;
		const char *kind = c->kind == CASE_CLASS && c->overlap ? "class-overlap" : case_kind_names[c->kind];
		for (unsigned v = 0; v < s->variant_count; v++)
			if (measure_variant_has(&s->variants[v], c->fn))
				fprintf(out, "%s,%s,%s,%s,%s,%s,%.4g,%.4g,%.4g,%s,%.4f,%.4g,%.4f,%.4f,%zu,%zu,%d,%zu,%u,%.4f,%.4f,"
					     "%.4f,%u,%d,%d\n",
					base_function_names[c->fn], s->variants[v].name, kind, c->label, c->align,
					placement(c), r[i].median[v], r[i].p10[v], r[i].p90[v], s->clock.unit,
					r[i].ratio[v], r[i].median[v] > 0 ? r[i].mean_bytes / r[i].median[v] : 0,
					r[i].ratio_low[v], r[i].ratio_high[v], movsb, stosb, c->read_back,
					movsb_stop, r[i].pairs[v], r[i].aa.ratio, r[i].aa.low, r[i].aa.high,
					r[i].processes, r[i].disagree[v], c->in_use);
	}
}
