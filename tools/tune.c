/* memshim tune: from recorded histograms and this machine's cost curves
 * (tools/cost_model.h), the variant and thresholds that would cost the
 * recorded calls least, as the environment line to use. */
#include "config.h"

#include "dispatch/auto_policy.h"
#include "dispatch/calibration.h"
#include "dispatch/config.h"
#include "dispatch/cpu_features.h"
#include "dispatch/cpu_rows.h"
#include "dispatch/bands.h"
#include "shim/thresholds.h"
#include "preload/histogram_format.h"
#include "tools/cli.h"
#include "tools/cli_options.h"
#include "tools/alias_hazard.h"
#include "tools/dump_load.h"
#include "tools/report_parts.h"
#include "tools/tune.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char tune_help[] =
	"usage: memshim tune [--calibration FILE] HIST...\n"
	"       memshim tune --calibrate [--quick] [--calibration FILE] [HIST...]\n"
	"Predicts, from histogram dumps (MEMSHIM_HIST) and this machine's cost curves,\n"
	"the time each variant and threshold would spend in memcpy, memmove and\n"
	"memset: sum over size buckets of calls x cost(variant, size).  Prints the\n"
	"best setting as an environment line, and its predicted saving against the\n"
	"default and against glibc, with the spread over the calibration's rounds;\n"
	"and the GLIBC_TUNABLES line that gives glibc's own functions the same\n"
	"thresholds, where the setting has some glibc can take.\n"
	"Without a calibration file at the default path, on a terminal, the quick\n"
	"calibration runs first and is kept there, which changes the default of every\n"
	"program preloaded with libmemshim.so (it says so, and how to undo it); where\n"
	"stderr is not a terminal it is not run unasked: give --calibrate.\n"
	"  --calibrate          measure the cost curves (at most 30 s) and write them,\n"
	"                       with this machine's best thresholds and each\n"
	"                       function's best variant, which the library's default\n"
	"                       policy then follows\n"
	"  --quick              with --calibrate: fewer sizes and rounds (at most 10 s)\n"
	"  --calibration FILE   the calibration file (default: $MEMSHIM_CONFIG, else\n"
	"                       $XDG_CACHE_HOME/memshim/calibration, else\n"
	"                       ~/.cache/memshim/calibration)\n"
	"The prediction covers the time inside these functions only.\n"
	"A HIST may be a directory (every dump in it); a dump that cannot be read is\n"
	"named with the reason and left out; the exit status is then 1.\n";

struct options {
	bool calibrate, quick, tiny;
	const char *calibration;
	char **files; /* histogram files and directories: argc entries at most */
	unsigned file_count;
};

static int usage_error(const char *format, ...)
{
	va_list args;
	va_start(args, format);
	fputs("memshim tune: ", stderr);
	vfprintf(stderr, format, args);
	fputs(" (see memshim tune --help)\n", stderr);
	va_end(args);
	return 2;
}

enum { TUNE_CALIBRATE = 1, TUNE_QUICK, TUNE_TINY, TUNE_CALIBRATION };

/* --tiny, not in the help: a calibration of about a second, for the tests. */
static const struct option tune_options[] = {
	{ "calibrate", no_argument, NULL, TUNE_CALIBRATE },
	{ "quick", no_argument, NULL, TUNE_QUICK },
	{ "tiny", no_argument, NULL, TUNE_TINY },
	{ "calibration", required_argument, NULL, TUNE_CALIBRATION },
	{ 0 },
};

static int apply_option(void *context, int id, const char *name, const char *value)
{
	struct options *o = context;
	if (id == TUNE_CALIBRATE)
		o->calibrate = true;
	else if (id == TUNE_QUICK)
		o->quick = true;
	else if (id == TUNE_TINY)
		o->tiny = true;
	else if (!value[0])
		return usage_error("%s needs a file name", name);
	else
		o->calibration = value;
	return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	*o = (struct options){ 0 };
	const struct cli_syntax syntax = { "tune", tune_options, false };
	int first, rc = cli_parse_options(argc, argv, &syntax, apply_option, o, &first);
	if (rc)
		return rc;
	o->files = calloc((size_t)argc, sizeof *o->files);
	if (!o->files)
		return 1;
	for (int i = first; i < argc; i++) {
		o->files[o->file_count++] = argv[i];
	}
	if (!o->calibrate && !o->file_count)
		return usage_error("no histogram files given (and no --calibrate)");
	if (o->quick && !o->calibrate)
		return usage_error("--quick goes with --calibrate");
	return 0;
}

/* ---- composing settings from the curves ---- */

const struct cm_curve *calibration_curve(const struct calibration *c, enum base_function fn, const char *name)
{
	for (unsigned i = 0; i < c->count; i++)
		if (c->curves[i].fn == fn && strcmp(c->curves[i].name, name) == 0)
			return &c->curves[i].curve;
	return NULL;
}

void tune_builtin_thresholds(double t[T_COUNT])
{
	struct thresholds builtin;
	auto_default_thresholds(cpu_features(), &builtin);
	t[T_ERMS] = ERMS_THRESHOLD_DEFAULT;
	t[T_STOSB] = STOSB_THRESHOLD_DEFAULT;
	t[T_AUTO_MOVSB] = (double)builtin.auto_movsb;
	t[T_AUTO_STOSB] = (double)builtin.auto_stosb;
	t[T_NT] = (double)builtin.nt;
}

/* Bytes per vector of a vector variant ("avx2", "avx2_erms"); 0 for others. */
static unsigned vector_width(const char *variant)
{
	const struct variant *v = variant_named(variant);
	return v ? v->vector_bytes : 0;
}

static bool has_band(const char *variant)
{
	const struct variant *v = variant_named(variant);
	return v && v->rep_band;
}

/* The threshold a variant's rep band starts at, for fn; T_COUNT if none. */
static enum threshold_name band_threshold(enum base_function fn, const char *variant)
{
	if (!has_band(variant))
		return T_COUNT;
	if (!vector_width(variant)) /* erms: MEMSHIM_ERMS/STOSB_THRESHOLD */
		return fn == FN_MEMSET ? T_STOSB : T_ERMS;
	return fn == FN_MEMSET ? T_AUTO_STOSB : T_AUTO_MOVSB;
}

static enum threshold_name above_threshold(const char *variant)
{
	return vector_width(variant) ? T_NT : T_COUNT;
}

/* The setting `variant` with thresholds t makes of fn's curves: how the
 * variant's code chooses its pieces by size.  False if a curve is missing. */
static bool compose(const struct calibration *c, enum base_function fn, const char *variant,
		    const double t[T_COUNT], struct cm_setting *s)
{
	unsigned width = vector_width(variant);
	enum threshold_name band = band_threshold(fn, variant);
	char base[24], nt[32];
	/* the measured curve: the variant without its rep band ("avx2_xmm_erms" -> "avx2_xmm") */
	const struct variant *row = variant_named(variant);
	snprintf(base, sizeof base, "%s", row ? variant_twin(row)->name : variant);
	snprintf(nt, sizeof nt, "%s:nt", base);
	*s = cm_fixed(calibration_curve(c, fn, width ? base : variant));
	if (band != T_COUNT) {
		s->band = calibration_curve(c, fn, "fsrm"); /* rep movsb / rep stosb */
		s->band_from = t[band];
	}
	if (width) {
		s->above = calibration_curve(c, fn, nt);
		s->above_from = t[T_NT];
		s->floor = 8.0 * width; /* up to 8 vectors: the short-copy code, always */
	}
	return s->below && (band == T_COUNT || s->band) && (!width || s->above);
}

/* A setting of every function as terms: one per band of each function
 * with calls, each band's variant on the calls of its sizes. */
#define BAND_TERMS_MAX (FN_COUNT * MAX_BANDS)
struct band_terms {
	struct cm_setting s[BAND_TERMS_MAX];
	struct cm_workload w[BAND_TERMS_MAX];
	struct cm_term t[BAND_TERMS_MAX];
	unsigned n;
};

/* The buckets of w whose mean size is in (lo, hi]. */
static void workload_part(const struct cm_workload *w, double lo, double hi, struct cm_workload *out)
{
	out->count = 0;
	for (unsigned i = 0; i < w->count; i++)
		if (w->size[i] > lo && w->size[i] <= hi) {
			out->size[out->count] = w->size[i];
			out->calls[out->count++] = w->calls[i];
		}
}

/* Adds fn's terms under `setting` (a variant, or bands in their text
 * form) to bt; false if it is not one or a curve is missing. */
static bool add_band_terms(const struct calibration *c, enum base_function fn, const char *setting,
			   const struct cm_workload *w, const double t[T_COUNT], struct band_terms *bt)
{
	struct band_list bands;
	if (band_list_parse(setting, &bands))
		return false;
	double lo = -1;
	for (unsigned b = 0; b < bands.count; b++) {
		double hi = b + 1 < bands.count ? (double)bands.upper[b] : HUGE_VAL;
		workload_part(w, lo, hi, &bt->w[bt->n]);
		lo = hi;
		if (!compose(c, fn, bands.variant[b]->name, t, &bt->s[bt->n]))
			return false;
		bt->t[bt->n] = (struct cm_term){ &bt->s[bt->n], &bt->w[bt->n] };
		bt->n++;
	}
	return true;
}

static bool make_band_terms(const struct calibration *c, const char *const setting[FN_COUNT],
			    const struct cm_workload w[FN_COUNT], const double t[T_COUNT], struct band_terms *bt)
{
	bt->n = 0;
	for (int fn = 0; fn < FN_COUNT; fn++)
		if (w[fn].count && !add_band_terms(c, (enum base_function)fn, setting[fn], &w[fn], t, bt))
			return false;
	return true;
}

double tune_function_cost(const struct calibration *c, enum base_function fn, const char *setting,
			  const double t[T_COUNT], const struct cm_workload *w, unsigned round)
{
	static struct band_terms bt;
	bt.n = 0;
	return add_band_terms(c, fn, setting, w, t, &bt) ? cm_sum(bt.t, bt.n, round) : -1;
}

/* The fields of the settings that follow threshold t. */
static unsigned fields_of(enum threshold_name t, const char *const variant[FN_COUNT], struct cm_setting *s,
			  const int *fns, unsigned n, double **fields)
{
	unsigned k = 0;
	for (unsigned i = 0; i < n; i++) {
		if (band_threshold((enum base_function)fns[i], variant[fns[i]]) == t)
			fields[k++] = &s[fns[i]].band_from;
		if (above_threshold(variant[fns[i]]) == t)
			fields[k++] = &s[fns[i]].above_from;
	}
	return k;
}

/* Builds a term per function with calls; false if a curve is missing. */
static bool make_terms(const struct calibration *c, const char *const variant[FN_COUNT],
		       const struct cm_workload w[FN_COUNT], const double t[T_COUNT], struct cm_setting *s,
		       struct cm_term *terms, int *fns, unsigned *n)
{
	*n = 0;
	for (int fn = 0; fn < FN_COUNT; fn++) {
		if (!w[fn].count)
			continue;
		if (!compose(c, (enum base_function)fn, variant[fn], t, &s[fn]))
			return false;
		terms[*n] = (struct cm_term){ &s[fn], &w[fn] };
		fns[(*n)++] = fn;
	}
	return true;
}

/* Each threshold in turn set to its best value given the others; three
 * passes, since a shared threshold (NT for every vector variant, erms for
 * memcpy and memmove) moves the best value of the others little. */
double tune_thresholds(const struct calibration *c, const char *const variant[FN_COUNT],
		       const struct cm_workload w[FN_COUNT], double t[T_COUNT])
{
	static double candidates[512];
	unsigned candidate_count = cm_threshold_candidates(candidates, 512), n;
	struct cm_setting s[FN_COUNT];
	struct cm_term terms[FN_COUNT];
	int fns[FN_COUNT];
	if (!make_terms(c, variant, w, t, s, terms, fns, &n))
		return -1;
	for (int pass = 0; pass < 3; pass++)
		for (int th = 0; th < T_COUNT; th++) {
			double *fields[2 * FN_COUNT];
			unsigned k = fields_of((enum threshold_name)th, variant, s, fns, n, fields);
			if (k) {
				cm_best_threshold(terms, n, fields, k, candidates, candidate_count);
				t[th] = *fields[0];
			}
		}
	return cm_sum(terms, n, CM_MEDIAN);
}

/* ---- figures for people, as memshim report prints them ---- */

/* A cost in the calibration's unit: a time ("216 ms") when it is ns, else
 * a count ("216 million cycles"). */
static const char *cost_text(const struct calibration *c, double cost, char *buf, size_t size)
{
	if (strcmp(c->unit, "ns") == 0)
		return human_duration(cost, buf, size);
	if (fabs(cost) >= 1e9)
		snprintf(buf, size, "%.3g billion %s", cost / 1e9, c->unit);
	else if (fabs(cost) >= 1e6)
		snprintf(buf, size, "%.3g million %s", cost / 1e6, c->unit);
	else
		snprintf(buf, size, "%.0f %s", cost, c->unit);
	return buf;
}

/* "what the time is" in the calibration's unit: "time" or "cycles". */
static const char *cost_kind(const struct calibration *c) { return strcmp(c->unit, "ns") == 0 ? "time" : c->unit; }

/* A threshold as a size ("3 KiB"), or "never". */
static const char *threshold_text(double t, char *buf, size_t size)
{
	if (t >= CM_NEVER)
		snprintf(buf, size, "never");
	else
		human_size((uint64_t)t, buf, size);
	return buf;
}

/* The name memshim info gives threshold t: "auto_movsb" for MEMSHIM_AUTO_MOVSB_THRESHOLD. */
static const char *threshold_name(enum threshold_name t, char *buf, size_t size)
{
	const char *variable = config_threshold_variable(t) + strlen("MEMSHIM_");
	size_t n = strlen(variable) - strlen("_THRESHOLD"), i;
	for (i = 0; i < n && i + 1 < size; i++)
		buf[i] = (char)tolower((unsigned char)variable[i]);
	buf[i] = '\0';
	return buf;
}

/* ---- the default a preloaded program gets ---- */

/* Its variants (no variable naming one), its thresholds, and where each
 * came from, as memshim info says: what tune's "against the default" means. */
struct tune_default {
	const char *variant[FN_COUNT]; /* bands in their text form: a variant is one band */
	char text[FN_COUNT][BAND_TEXT_MAX];
	double t[T_COUNT];
	enum threshold_origin origin[T_COUNT];
};

static const char *const origin_words[] = { [FROM_BUILTIN] = "built-in", [FROM_FILE] = "calibration file",
					    [FROM_ENVIRONMENT] = "environment" };

/* The default in force now; read before a calibration changes the thresholds. */
static void default_in_force(struct tune_default *d)
{
	const struct config *config = config_get();
	const size_t values[T_COUNT] = { memshim_thresholds.erms, memshim_thresholds.stosb, memshim_thresholds.auto_movsb,
					 memshim_thresholds.auto_stosb, memshim_thresholds.nt };
	const char *why;
	for (int t = 0; t < T_COUNT; t++) {
		d->t[t] = (double)values[t];
		d->origin[t] = config->origin[t];
	}
	for (int fn = 0; fn < FN_COUNT; fn++) {
		struct band_list bands;
		config_default_bands((enum base_function)fn, &bands, &why);
		band_list_format(&bands, d->text[fn]);
		d->variant[fn] = d->text[fn];
	}
}

/* Whether the library reads its calibration from path, in this environment. */
static bool library_reads(const char *path)
{
	char read[4096];
	bool named;
	return calibration_path(read, sizeof read, &named) && strcmp(read, path) == 0;
}

/* The default once the calibration file at path is read, as the library
 * reads it; the environment's thresholds still win. */
static void default_after_calibration(struct tune_default *d, const char *path)
{
	struct thresholds t = memshim_thresholds;
	struct calibration_choices choices;
	memset(&choices, 0, sizeof choices);
	if (!calibration_apply(path, false, &t, &choices))
		return;
	const enum threshold_name from_file[] = { T_AUTO_MOVSB, T_AUTO_STOSB, T_NT };
	const size_t values[] = { t.auto_movsb, t.auto_stosb, t.nt };
	for (unsigned i = 0; i < 3; i++)
		if (d->origin[from_file[i]] != FROM_ENVIRONMENT) {
			d->t[from_file[i]] = (double)values[i];
			d->origin[from_file[i]] = FROM_FILE;
		}
	for (int fn = 0; fn < FN_COUNT; fn++)
		if (choices.bands[fn].count) {
			band_list_format(&choices.bands[fn], d->text[fn]);
			d->variant[fn] = d->text[fn];
		}
}

/* ---- the prediction ---- */

struct candidate {
	const char *variant;
	double t[T_COUNT];
	double rounds[CM_MAX_ROUNDS]; /* fn's total in each calibration round */
	double total;                 /* their median */
	/* Against glibc round by round: the median, p10 and p90 of the
	 * per-round differences as fractions of glibc's total; what the
	 * ranking goes by (a round's curves were measured together, so a slow
	 * spell of the machine in one round is set against itself). */
	struct cm_spread vs_glibc;
	bool has_glibc; /* false: no glibc curve to set it against */
};

/* By the difference to glibc, else (no glibc curve) by the total. */
static int by_cost(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;
	double u = x->has_glibc ? x->vs_glibc.median : x->total, v = y->has_glibc ? y->vs_glibc.median : y->total;
	return (u > v) - (u < v);
}

/* "auto_movsb 3 KiB, nt 22 KiB": the thresholds variant reads in fn. */
static void thresholds_text(enum base_function fn, const char *variant, const double t[T_COUNT], char *out,
			    size_t size)
{
	enum threshold_name used[2] = { band_threshold(fn, variant), above_threshold(variant) };
	size_t len = 0;
	out[0] = '\0';
	for (int i = 0; i < 2; i++) {
		char name[24], value[32];
		if (used[i] != T_COUNT && len < size)
			len += (size_t)snprintf(out + len, size - len, "%s%s %s", len ? ", " : "",
						threshold_name(used[i], name, sizeof name),
						threshold_text(t[used[i]], value, sizeof value));
	}
}

static const struct candidate *glibc_candidate(const struct candidate *r, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (strcmp(r[i].variant, "glibc") == 0)
			return &r[i];
	return NULL;
}

/* Each candidate's per-round differences to glibc's. */
static void against_glibc(const struct calibration *c, struct candidate *r, unsigned n)
{
	const struct candidate *glibc = glibc_candidate(r, n);
	for (unsigned i = 0; i < n && glibc; i++) {
		double v[CM_MAX_ROUNDS];
		for (unsigned k = 0; k < c->rounds; k++)
			v[k] = glibc->rounds[k] > 0 ? (r[i].rounds[k] - glibc->rounds[k]) / glibc->rounds[k] : 0;
		r[i].vs_glibc = (struct cm_spread){ cm_quantile(v, c->rounds, 0.5), cm_quantile(v, c->rounds, 0.1),
						    cm_quantile(v, c->rounds, 0.9) };
		r[i].has_glibc = true;
	}
}

/* Every usable variant at its own best thresholds for fn alone, best first. */
static unsigned rank_variants(const struct calibration *c, enum base_function fn, const struct cm_workload *w,
			      struct candidate *out)
{
	static struct cm_workload only[FN_COUNT];
	unsigned n = 0;
	memset(only, 0, sizeof only);
	only[fn] = *w;
	for (unsigned i = 0; i < variant_count; i++) {
		const struct variant *v = &variant_table[i];
		const char *chosen[FN_COUNT] = { v->name, v->name, v->name };
		if (!variant_usable(v))
			continue;
		memset(&out[n], 0, sizeof out[n]);
		out[n].variant = v->name;
		tune_builtin_thresholds(out[n].t);
		if (tune_thresholds(c, chosen, only, out[n].t) < 0)
			continue; /* a curve missing: left out */
		double sorted[CM_MAX_ROUNDS];
		for (unsigned r = 0; r < c->rounds; r++)
			sorted[r] = out[n].rounds[r] = tune_function_cost(c, fn, v->name, out[n].t, w, r);
		out[n++].total = cm_quantile(sorted, c->rounds, 0.5);
	}
	against_glibc(c, out, n);
	qsort(out, n, sizeof *out, by_cost);
	return n;
}

/* The 4 KiB-aliasing hazard, which the curves (measured away from it) leave out. */
static void print_alias_hazard(enum base_function fn, const struct function_histogram *h)
{
	struct band_list bands;
	const char *why;
	config_default_bands(fn, &bands, &why);
	if (alias_hazard_print(stdout, "", h, fn, cpu_row_for(cpu_features()), &bands))
		printf("  the predictions above leave it out: the calibration copies away from 4 KiB aliasing\n");
}

static void print_ranking(const struct calibration *c, enum base_function fn, const struct function_histogram *h,
			  const struct candidate *r, unsigned n)
{
	const struct candidate *glibc = glibc_candidate(r, n);
	char bytes[32], cost[48], low[48], high[48];
	printf("\n%s: %llu calls, %s; predicted %s in %s, each variant at its best thresholds\n",
	       base_function_names[fn], (unsigned long long)sum_buckets(h->calls),
	       human_size(sum_buckets(h->bytes), bytes, sizeof bytes), cost_kind(c), base_function_names[fn]);
	if (glibc) {
		double v[CM_MAX_ROUNDS];
		memcpy(v, glibc->rounds, sizeof v);
		struct cm_spread g = { glibc->total, cm_quantile(v, c->rounds, 0.1), cm_quantile(v, c->rounds, 0.9) };
		printf("glibc: %s (p10..p90 over the %u calibration rounds: %s .. %s); each variant against it\n"
		       "round by round: the median of the per-round differences, and their p10..p90:\n",
		       cost_text(c, g.median, cost, sizeof cost), c->rounds, cost_text(c, g.p10, low, sizeof low),
		       cost_text(c, g.p90, high, sizeof high));
		printf("  %-14s %9s %21s  %s\n", "variant", "vs glibc", "p10..p90", "thresholds");
	} else
		printf("(no glibc curve: each variant's median over the %u calibration rounds)\n  %-14s %14s  %s\n",
		       c->rounds, "variant", "predicted", "thresholds");
	for (unsigned i = 0; i < n; i++) {
		char text[160], range[48];
		thresholds_text(fn, r[i].variant, r[i].t, text, sizeof text);
		snprintf(range, sizeof range, "%+.1f%% .. %+.1f%%", 100 * r[i].vs_glibc.p10, 100 * r[i].vs_glibc.p90);
		if (glibc)
			printf("  %-14s %+8.1f%% %21s  %s\n", r[i].variant, 100 * r[i].vs_glibc.median, range, text);
		else
			printf("  %-14s %14s  %s\n", r[i].variant, cost_text(c, r[i].total, cost, sizeof cost), text);
	}
	print_alias_hazard(fn, h);
}

/* The environment line: MEMSHIM_IMPL when every function with calls takes
 * the same variant and all have calls, else one variable per function; then
 * every threshold those variants read. */
static void print_env_line(const char *const variant[FN_COUNT], const struct cm_workload w[FN_COUNT],
			   const double t[T_COUNT])
{
	static const char *const variables[FN_COUNT] = { "MEMSHIM_MEMCPY", "MEMSHIM_MEMMOVE", "MEMSHIM_MEMSET" };
	bool same = w[0].count && w[1].count && w[2].count && strcmp(variant[0], variant[1]) == 0 &&
		    strcmp(variant[1], variant[2]) == 0;
	bool used[T_COUNT] = { false };
	const char *sep = "";
	if (same)
		printf("MEMSHIM_IMPL=%s", variant[0]), sep = " ";
	for (int fn = 0; fn < FN_COUNT; fn++) {
		if (!w[fn].count)
			continue;
		if (!same)
			printf("%s%s=%s", sep, variables[fn], variant[fn]), sep = " ";
		enum threshold_name b = band_threshold((enum base_function)fn, variant[fn]);
		enum threshold_name a = above_threshold(variant[fn]);
		if (b != T_COUNT)
			used[b] = true;
		if (a != T_COUNT)
			used[a] = true;
	}
	for (int th = 0; th < T_COUNT; th++)
		if (used[th])
			printf(" %s=%.0f", config_threshold_variable((enum threshold_name)th), t[th]);
	printf("\n");
}

/* glibc's x86 string functions (2.36: sysdeps/x86/dl-cacheinfo.h, read for
 * the names and bounds) take three thresholds from GLIBC_TUNABLES: rep movsb
 * from x86_rep_movsb_threshold (ignored below 8 of its vectors: 512 B with
 * AVX-512), rep stosb from x86_rep_stosb_threshold, and for memcpy and
 * memmove non-temporal stores from x86_non_temporal_threshold (ignored below
 * 0x4040; the line gives at least these bounds).  That is the shape of our vector variants: vectors, a rep band
 * in the *_erms rows, then non-temporal stores; so their thresholds carry
 * over to glibc's own code, and a user can keep that part of the gain
 * without the preload.  glibc's code below the thresholds stays its own
 * (and on AMD, 2.36 stops rep movsb at the L2 size whatever is set). */
#define GLIBC_MIN_REP_MOVSB 512
#define GLIBC_MIN_NON_TEMPORAL 0x4040

static double at_least(double value, double min) { return value < min ? min : value; }

static void print_glibc_tunables(const char *const variant[FN_COUNT], const struct cm_workload w[FN_COUNT],
				 const double t[T_COUNT])
{
	bool movsb = false, stosb = false, nt = false;
	for (int fn = 0; fn < FN_COUNT; fn++) {
		if (!w[fn].count || !vector_width(variant[fn]))
			continue;
		enum threshold_name band = band_threshold((enum base_function)fn, variant[fn]);
		movsb |= band == T_AUTO_MOVSB;
		stosb |= band == T_AUTO_STOSB;
		nt |= fn != FN_MEMSET; /* glibc 2.36's memset has no non-temporal path */
	}
	if (!movsb && !stosb && !nt)
		return;
	const char *sep = "=";
	printf("GLIBC_TUNABLES");
	if (movsb)
		printf("%sglibc.cpu.x86_rep_movsb_threshold=%.0f", sep, at_least(t[T_AUTO_MOVSB], GLIBC_MIN_REP_MOVSB)),
			sep = ":";
	if (stosb)
		printf("%sglibc.cpu.x86_rep_stosb_threshold=%.0f", sep, at_least(t[T_AUTO_STOSB], 1)), sep = ":";
	if (nt)
		printf("%sglibc.cpu.x86_non_temporal_threshold=%.0f", sep, at_least(t[T_NT], GLIBC_MIN_NON_TEMPORAL));
	printf("\n  (without the library: glibc's own functions with this setting's thresholds;\n"
	       "   below them glibc's code is its own, so the prediction above is not theirs:\n"
	       "   memshim ab --tunables with the value after GLIBC_TUNABLES= measures it)\n");
}

/* Predicted total of a whole setting (variants and thresholds) against
 * base's, and the saving, each the median over the calibration's rounds of
 * the per-round figures whose p10..p90 it prints beside. */
static void print_against(const struct calibration *c, const char *label, const char *const best[FN_COUNT],
			  const double *tb, const char *const base[FN_COUNT], const double *tbase,
			  const struct cm_workload w[FN_COUNT], const struct dump *d)
{
	static struct band_terms mine_terms, base_terms;
	char cost[48];
	if (!make_band_terms(c, best, w, tb, &mine_terms) || !make_band_terms(c, base, w, tbase, &base_terms))
		return;
	double theirs = cm_sum_spread(base_terms.t, base_terms.n, c->rounds).median;
	struct cm_spread saving =
		cm_saving_spread(mine_terms.t, mine_terms.n, base_terms.t, base_terms.n, c->rounds);
	printf("  against %s: %s;\n    saving %.1f%% (p10..p90 over the %u calibration rounds: %.1f%% .. %.1f%%)\n",
	       label, cost_text(c, theirs, cost, sizeof cost), 100 * saving.median, c->rounds, 100 * saving.p10,
	       100 * saving.p90);
	tune_print_share(c, d, saving.median * theirs);
}

/* "the default (memcpy evex, memmove evex, memset glibc; thresholds: nt [calibration file])":
 * the thresholds its variants read, each with where it came from. */
static void default_label(const struct tune_default *def, char *out, size_t size)
{
	bool used[T_COUNT] = { false };
	for (int fn = 0; fn < FN_COUNT; fn++) {
		struct band_list bands;
		if (band_list_parse(def->variant[fn], &bands))
			continue;
		for (unsigned b = 0; b < bands.count; b++) {
			enum threshold_name band = band_threshold((enum base_function)fn, bands.variant[b]->name);
			enum threshold_name above = above_threshold(bands.variant[b]->name);
			if (band != T_COUNT)
				used[band] = true;
			if (above != T_COUNT)
				used[above] = true;
		}
	}
	size_t len = (size_t)snprintf(out, size, "the default (memcpy %s, memmove %s, memset %s", def->variant[FN_MEMCPY],
				      def->variant[FN_MEMMOVE], def->variant[FN_MEMSET]);
	const char *separator = "; thresholds: ";
	for (int t = 0; t < T_COUNT; t++) {
		char name[24], value[32];
		if (!used[t] || len >= size)
			continue;
		len += (size_t)snprintf(out + len, size - len, "%s%s %s [%s]", separator,
					threshold_name((enum threshold_name)t, name, sizeof name),
					threshold_text(def->t[t], value, sizeof value), origin_words[def->origin[t]]);
		separator = ", ";
	}
	if (len < size)
		snprintf(out + len, size - len, ")");
}

static void print_prediction(const struct calibration *c, const char *const best[FN_COUNT], const double *t,
			     const struct cm_workload w[FN_COUNT], const struct dump *d, const struct tune_default *def)
{
	const char *glibc[FN_COUNT] = { "glibc", "glibc", "glibc" };
	struct cm_setting s[FN_COUNT];
	struct cm_term terms[FN_COUNT];
	int fns[FN_COUNT];
	unsigned n;
	char label[3 * BAND_TEXT_MAX + 200], median[48], p10[48], p90[48];
	if (!make_terms(c, best, w, t, s, terms, fns, &n))
		return;
	struct cm_spread spread = cm_sum_spread(terms, n, c->rounds);
	printf("\nBest setting:\n");
	print_env_line(best, w, t);
	print_glibc_tunables(best, w, t);
	printf("Predicted: %s in these functions (p10..p90 over the %u calibration rounds: %s .. %s)\n",
	       cost_text(c, spread.median, median, sizeof median), c->rounds, cost_text(c, spread.p10, p10, sizeof p10),
	       cost_text(c, spread.p90, p90, sizeof p90));
	default_label(def, label, sizeof label);
	print_against(c, label, best, t, def->variant, def->t, w, d);
	print_against(c, "glibc", best, t, glibc, def->t, w, d);
}

static int predict(const struct calibration *c, const struct dump *d, const struct tune_default *def)
{
	static struct cm_workload w[FN_COUNT];
	static struct candidate ranked[FN_COUNT][32];
	const char *best[FN_COUNT] = { "glibc", "glibc", "glibc" };
	double t[T_COUNT];
	tune_builtin_thresholds(t);
	printf("memshim tune: %u dump(s); costs in %s (%s)\n", d->files, c->unit, c->clock);
	printf("Each figure is the median over the calibration's %u rounds of that figure's own per-round\n"
	       "values (so medians need not add up), p10..p90 their spread.\n", c->rounds);
	for (int fn = 0; fn < FN_COUNT; fn++) {
		w[fn].count = 0;
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			cm_workload_add(&w[fn], (double)d->hist.fn[fn].calls[b], (double)d->hist.fn[fn].bytes[b]);
		if (!w[fn].count)
			continue;
		unsigned n = rank_variants(c, (enum base_function)fn, &w[fn], ranked[fn]);
		if (!n)
			continue;
		print_ranking(c, (enum base_function)fn, &d->hist.fn[fn], ranked[fn], n);
		best[fn] = ranked[fn][0].variant;
		memcpy(t, ranked[fn][0].t, sizeof t); /* a start; shared thresholds are settled jointly below */
	}
	if (!w[0].count && !w[1].count && !w[2].count) {
		printf("The dumps hold no calls: nothing to tune.\n");
		return 0;
	}
	tune_thresholds(c, best, w, t);
	print_prediction(c, best, t, w, d, def);
	tune_check(c, d, w);
	return 0;
}

/* ---- the command ---- */

static enum calibration_level level_of(const struct options *o)
{
	return o->tiny ? CALIBRATE_TINY : o->quick ? CALIBRATE_QUICK : CALIBRATE_FULL;
}

static int calibrate(const char *path, enum calibration_level level, struct calibration *c)
{
	char why[600], movsb[32], stosb[32], nt[32];
	time_t start = time(NULL);
	calibration_guard_signals(); /* Ctrl-C leaves the old file, and no temporary one */
	int rc = tune_measure(c, level);
	if (rc)
		return rc;
	if (!calibration_write(path, c, why, sizeof why)) {
		fprintf(stderr, "memshim tune: %s\n", why);
		return 1;
	}
	printf("memshim tune: calibrated in %ld s, %u curves, costs in %s (%s)\n", (long)(time(NULL) - start),
	       c->count, c->unit, c->clock);
	printf("  wrote %s; the auto policy's thresholds for this machine: rep movsb from %s,\n"
	       "  rep stosb from %s, non-temporal from %s (the library reads them at start-up)\n",
	       path, human_size(c->auto_movsb, movsb, sizeof movsb), human_size(c->auto_stosb, stosb, sizeof stosb),
	       human_size(c->nt, nt, sizeof nt));
	printf("  the default policy's variants for this machine:\n");
	for (int fn = 0; fn < FN_COUNT; fn++)
		printf("  %-7s -> %s: %s\n", base_function_names[fn], c->choice[fn], c->choice_why[fn]);
	if (library_reads(path))
		printf("  every program started with libmemshim.so preloaded from now on has these as its\n"
		       "  default (a MEMSHIM_* variable still overrides them); to undo: rm %s\n", path);
	return 0;
}

/* The calibration for a prediction: the file, or, where the default path
 * has none yet, a quick calibration written there (*calibrated set).  That
 * file changes the default of every program preloaded from then on, so it
 * is written unasked only where someone reads what is said about it: with
 * stderr on a terminal.  A script, a pipeline into a log or a CI job gets
 * an error that asks for --calibrate instead. */
static int load_calibration(const char *path, bool default_path, const struct options *o, struct calibration *c,
			    bool *calibrated)
{
	char why[600];
	if (calibration_read(path, c, why, sizeof why))
		return 0;
	if (!default_path || access(path, F_OK) == 0) {
		fprintf(stderr, "memshim tune: %s; run memshim tune --calibrate first\n", why);
		return 1;
	}
	if (!isatty(STDERR_FILENO)) {
		fprintf(stderr, "memshim tune: no calibration file at %s; run memshim tune --calibrate first (not run "
				"unasked where stderr is not a terminal: the file it writes changes the default of "
				"every program preloaded with libmemshim.so)\n", path);
		return 1;
	}
	fprintf(stderr, "memshim tune: no calibration file yet: running the quick calibration first\n"
			"  (memshim tune --calibrate --quick; --calibrate alone measures more).  It writes\n"
			"  %s, which every program started with libmemshim.so preloaded\n"
			"  reads: from now on their default variants and thresholds are the ones it measures.\n"
			"  To undo that: rm %s\n", path, path);
	*calibrated = true;
	return calibrate(path, o->tiny ? CALIBRATE_TINY : CALIBRATE_QUICK, c);
}

/* Bad dumps are named and left out, as report does; *left_out says so. */
static int read_dumps(const struct options *o, struct dump *d, bool *left_out)
{
	int bad = dump_load("tune", o->files, o->file_count, d);
	*left_out = bad != 0;
	return bad < 0 || (o->file_count && d->files == 0) ? 1 : 0; /* every bad one is named */
}

int cmd_tune(int argc, char **argv)
{
	if (cli_wants_help(argc, argv, tune_help, false))
		return 0;
	struct options o;
	int rc = parse_options(argc, argv, &o);
	char path[4096];
	bool named;
	if (rc)
		return rc;
	if (o.calibration)
		snprintf(path, sizeof path, "%s", o.calibration);
	else if (!calibration_path(path, sizeof path, &named))
		return usage_error("no calibration file: set HOME or XDG_CACHE_HOME, or give --calibration FILE");
	static struct dump d;
	hist_dump_init(&d);
	bool left_out;
	rc = read_dumps(&o, &d, &left_out); /* before a minute of calibration, not after */
	struct calibration *c = malloc(sizeof *c);
	struct tune_default def;
	bool calibrated = o.calibrate;
	default_in_force(&def); /* before a calibration sets thresholds of its own */
	if (!rc && !c)
		rc = 1;
	if (!rc && o.calibrate)
		rc = calibrate(path, level_of(&o), c);
	else if (!rc)
		rc = load_calibration(path, !o.calibration && !named, &o, c, &calibrated);
	if (!rc && calibrated && library_reads(path))
		default_after_calibration(&def, path);
	if (!rc && o.file_count)
		rc = predict(c, &d, &def);
	free(c);
	free(o.files);
	hist_dump_free(&d);
	return rc ? rc : left_out;
}
