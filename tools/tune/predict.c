/* memshim tune's prediction: for the dumps' calls, each variant ranked at
 * its best thresholds, then the best setting as an environment line (and
 * glibc's tunables that carry its thresholds over), with its predicted
 * saving against the default and against glibc. */
#include "tools/tune/tune.h"

#include "dispatch/settings.h"
#include "dispatch/bands.h"
#include "dispatch/config.h"
#include "dispatch/cpu_rows.h"
#include "shim/thresholds.h"
#include "dispatch/variants.h"
#include "dump/format.h"
#include "tools/util/alias_hazard.h"
#include "dump/reader/load.h"
#include "tools/util/paired_stats.h"
#include "tools/util/quantile.h"
#include "tools/util/units_shares.h"
#include "tools/calibrate/choose_bands.h"
#include "tools/calibrate/model.h"
#include "tools/util/sort.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* "movsb 3 KiB, nt 22 KiB": the thresholds variant reads in fn. */
static void thresholds_text(enum base_function fn, const char *variant, const double t[T_COUNT], char *out,
			    size_t size)
{
	enum threshold_name used[2] = { calibrate_rep_threshold(fn, variant), calibrate_above_threshold(variant) };
	size_t len = 0;
	out[0] = '\0';
	for (int i = 0; i < 2; i++) {
		char value[32];
		if (used[i] != T_COUNT && len < size)
			len += (size_t)snprintf(out + len, size - len, "%s%s %s", len ? ", " : "",
						threshold_keys(used[i])->name,
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
		r[i].vs_glibc = (struct cm_spread){ quantile(v, c->rounds, 0.5), quantile(v, c->rounds, 0.1),
						    quantile(v, c->rounds, 0.9) };
		r[i].has_glibc = true;
	}
}

/* What the 4 KiB-aliasing hazard costs fn's copies in the dumps under
 * setting, in the calibration's unit: the row's extra ns a byte times their
 * bytes (tools/util/alias_hazard.h); 0 where the row does not show it, or
 * where ns cannot be turned into the unit (cycles without a counter). */
static double hazard_cost(const struct calibration *c, const struct dump *d, enum base_function fn, const char *setting)
{
	const struct cpu_row *row = alias_hazard_row();
	double ns_per_unit = tune_ns_per_unit(c);
	if (!row || !ns_per_unit)
		return 0;
	return alias_hazard_ns(&d->hist.fn[fn], row->alias4k[fn], setting) / ns_per_unit;
}

/* The hazard of each function with calls in w under setting, summed onto
 * the first of the n terms: a cost the curves leave out. */
static void add_hazard(const struct calibration *c, const struct dump *d, const char *const setting[FN_COUNT],
		       const struct cm_workload w[FN_COUNT], struct cm_term *terms, unsigned n)
{
	for (int fn = 0; fn < FN_COUNT && n; fn++)
		if (w[fn].count)
			terms[0].extra += hazard_cost(c, d, (enum base_function)fn, setting[fn]);
}

/* Every usable variant at its own best thresholds for fn alone, the
 * hazard's cost under it added, best first. */
static unsigned rank_variants(const struct calibration *c, const struct dump *d, enum base_function fn,
			      const struct cm_workload *w, struct candidate *out)
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
		calibrate_builtin_thresholds(out[n].t);
		if (calibrate_thresholds(c, chosen, only, out[n].t) < 0)
			continue; /* a curve missing: left out */
		double sorted[CM_MAX_ROUNDS], hazard = hazard_cost(c, d, fn, v->name);
		for (unsigned r = 0; r < c->rounds; r++)
			sorted[r] = out[n].rounds[r] = calibrate_function_cost(c, fn, v->name, out[n].t, w, r) + hazard;
		out[n++].total = quantile(sorted, c->rounds, 0.5);
	}
	against_glibc(c, out, n);
	sort_items(out, n, sizeof *out, by_cost);
	return n;
}

/* The 4 KiB-aliasing hazard, which the curves (measured away from it) leave
 * out and the predictions add; whether the default avoids it, the default
 * the saving is against (after --calibrate, the new file's). */
static void print_alias_hazard(enum base_function fn, const struct function_histogram *h,
			       const struct tune_default *def)
{
	struct band_list bands;
	bool parsed = band_list_parse(def->variant[fn], &bands) == NULL;
	if (alias_hazard_print(stdout, "", h, fn, alias_hazard_row(), parsed ? &bands : NULL))
		printf("  the predictions above count it: each variant's extra in the row times these bytes\n");
}

/* Where the calibration chose a variant as fn's default and this ranking
 * puts it slower than glibc for these calls, said beside the table: the
 * calibration's choice rests on the fleet's sizes, not this program's. */
static void print_calibrated_slower(const struct calibration *c, enum base_function fn, const struct candidate *r,
				    unsigned n)
{
	if (!glibc_candidate(r, n))
		return;
	for (unsigned i = 0; i < n; i++)
		if (strcmp(r[i].variant, c->choice[fn]) == 0 && strcmp(r[i].variant, "glibc") != 0 &&
		    r[i].vs_glibc.median > 0)
			printf("  note: the calibration chose %s as %s's default; for these calls it ranks\n"
			       "  %.1f%% slower than glibc\n", r[i].variant, base_function_names[fn],
			       100 * r[i].vs_glibc.median);
}

static void print_ranking(const struct calibration *c, enum base_function fn, const struct function_histogram *h,
			  const struct candidate *r, unsigned n, const struct tune_default *def)
{
	const struct candidate *glibc = glibc_candidate(r, n);
	char bytes[32], cost[48], low[48], high[48];
	printf("\n%s: %llu calls, %s; predicted %s in %s, each variant at its best thresholds\n",
	       base_function_names[fn], (unsigned long long)sum_buckets(h->calls),
	       human_size(sum_buckets(h->bytes), bytes, sizeof bytes), cost_kind(c), base_function_names[fn]);
	if (glibc) {
		double v[CM_MAX_ROUNDS];
		memcpy(v, glibc->rounds, sizeof v);
		struct cm_spread g = { glibc->total, quantile(v, c->rounds, 0.1), quantile(v, c->rounds, 0.9) };
		printf("glibc: %s (p10..p90 over the %u calibration rounds: %s .. %s); each variant against it\n"
		       "round by round: the median of the per-round differences, and their p10..p90:\n",
		       cost_text(c, g.median, cost, sizeof cost), c->rounds, cost_text(c, g.p10, low, sizeof low),
		       cost_text(c, g.p90, high, sizeof high));
		printf("  %-16s %9s %21s  %s\n", "variant", "vs glibc", "p10..p90", "thresholds");
	} else
		printf("(no glibc curve: each variant's median over the %u calibration rounds)\n  %-16s %14s  %s\n",
		       c->rounds, "variant", "predicted", "thresholds");
	for (unsigned i = 0; i < n; i++) {
		char text[160], range[48];
		thresholds_text(fn, r[i].variant, r[i].t, text, sizeof text);
		snprintf(range, sizeof range, "%+.1f%% .. %+.1f%%", 100 * r[i].vs_glibc.p10, 100 * r[i].vs_glibc.p90);
		if (glibc)
			printf("  %-16s %+8.1f%% %21s  %s\n", r[i].variant, 100 * r[i].vs_glibc.median, range, text);
		else
			printf("  %-16s %14s  %s\n", r[i].variant, cost_text(c, r[i].total, cost, sizeof cost), text);
	}
	print_calibrated_slower(c, fn, r, n);
	print_alias_hazard(fn, h, def);
}

/* Whether a threshold before t that is used reads t's variable: the line
 * sets each variable once. */
static bool variable_said(const bool used[T_COUNT], enum threshold_name t)
{
	for (int before = 0; before < (int)t; before++)
		if (used[before] && strcmp(threshold_keys((enum threshold_name)before)->variable,
					   threshold_keys(t)->variable) == 0)
			return true;
	return false;
}

/* The environment line: MEMSHIM_IMPL when every function with calls takes
 * the same variant and all have calls, else one variable per function; then
 * every threshold those variants read. */
static void env_line(const char *const variant[FN_COUNT], const struct cm_workload w[FN_COUNT], const double t[T_COUNT],
		     char *out, size_t size)
{
	bool same = w[0].count && w[1].count && w[2].count && strcmp(variant[0], variant[1]) == 0 &&
		    strcmp(variant[1], variant[2]) == 0;
	bool used[T_COUNT] = { false };
	size_t len = 0;
	out[0] = 0;
	if (same)
		len += (size_t)snprintf(out, size, "%s=%s", setting_keys(S_IMPL)->variable, variant[0]);
	for (int fn = 0; fn < FN_COUNT; fn++) {
		if (!w[fn].count)
			continue;
		if (!same && len < size)
			len += (size_t)snprintf(out + len, size - len, "%s%s=%s", len ? " " : "",
						setting_keys(function_setting((enum base_function)fn))->variable, variant[fn]);
		enum threshold_name b = calibrate_rep_threshold((enum base_function)fn, variant[fn]);
		enum threshold_name a = calibrate_above_threshold(variant[fn]);
		if (b != T_COUNT)
			used[b] = true;
		if (a != T_COUNT)
			used[a] = true;
	}
	for (int th = 0; th < T_COUNT; th++)
		if (used[th] && len < size && !variable_said(used, (enum threshold_name)th))
			len += (size_t)snprintf(out + len, size - len, " %s=%.0f",
						threshold_keys((enum threshold_name)th)->variable, t[th]);
}

/* glibc's x86 string functions (2.36: sysdeps/x86/dl-cacheinfo.h, read for
 * the names and bounds) take three thresholds from GLIBC_TUNABLES: rep movsb
 * from x86_rep_movsb_threshold (ignored below 8 of its vectors: 512 B with
 * AVX-512), rep stosb from x86_rep_stosb_threshold, and for memcpy and
 * memmove non-temporal stores from x86_non_temporal_threshold (ignored below
 * 0x4040; the line gives at least these bounds).  That is the shape of our vector variants: vectors, a rep range
 * in the *_erms variants, then non-temporal stores; so their thresholds carry
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
		if (!w[fn].count || calibrate_above_threshold(variant[fn]) == T_COUNT)
			continue;
		enum threshold_name band = calibrate_rep_threshold((enum base_function)fn, variant[fn]);
		movsb |= band == T_MOVSB;
		stosb |= band == T_STOSB;
		nt |= fn != FN_MEMSET; /* glibc 2.36's memset has no non-temporal path */
	}
	if (!movsb && !stosb && !nt)
		return;
	const char *sep = "=";
	printf("GLIBC_TUNABLES");
	if (movsb)
		printf("%sglibc.cpu.x86_rep_movsb_threshold=%.0f", sep, at_least(t[T_MOVSB], GLIBC_MIN_REP_MOVSB)),
			sep = ":";
	if (stosb)
		printf("%sglibc.cpu.x86_rep_stosb_threshold=%.0f", sep, at_least(t[T_STOSB], 1)), sep = ":";
	if (nt)
		printf("%sglibc.cpu.x86_non_temporal_threshold=%.0f", sep, at_least(t[T_NT], GLIBC_MIN_NON_TEMPORAL));
	printf("\n  (without the library: glibc's own functions with this setting's thresholds;\n"
	       "   below them glibc's code is its own, so the prediction above is not theirs:\n"
	       "   memshim ab --tunables with the value after GLIBC_TUNABLES= measures it)\n");
}

/* The saving of a whole setting (variants and thresholds) against base's,
 * and base's total, each the median over the calibration's rounds of the
 * per-round figures (saving: with its p10..p90); false if either has no curve. */
static bool saving_against(const struct calibration *c, const struct dump *d, const char *const best[FN_COUNT],
			   const double *tb, const char *const base[FN_COUNT], const double *tbase,
			   const struct cm_workload w[FN_COUNT], struct cm_spread *saving, double *theirs)
{
	static struct band_terms mine_terms, base_terms;
	if (!calibrate_band_terms(c, best, w, tb, &mine_terms) || !calibrate_band_terms(c, base, w, tbase, &base_terms))
		return false;
	add_hazard(c, d, best, w, mine_terms.t, mine_terms.n);
	add_hazard(c, d, base, w, base_terms.t, base_terms.n);
	*theirs = cm_sum_spread(base_terms.t, base_terms.n, c->rounds).median;
	*saving = cm_saving_spread(mine_terms.t, mine_terms.n, base_terms.t, base_terms.n, c->rounds);
	return true;
}

static void print_against(const struct calibration *c, const char *label, const char *const best[FN_COUNT],
			  const double *tb, const char *const base[FN_COUNT], const double *tbase,
			  const struct cm_workload w[FN_COUNT], const struct dump *d)
{
	struct cm_spread saving;
	double theirs;
	char cost[48];
	if (!saving_against(c, d, best, tb, base, tbase, w, &saving, &theirs))
		return;
	printf("  against %s: %s;\n    saving %.1f%% (p10..p90 over the %u calibration rounds: %.1f%% .. %.1f%%)\n",
	       label, cost_text(c, theirs, cost, sizeof cost), 100 * saving.median, c->rounds, 100 * saving.p10,
	       100 * saving.p90);
	tune_print_share(c, d, saving.median * theirs, saving.median);
}

/* Why the model's pick is no suggestion, or false if it is one: its saving
 * against the default (against glibc where the calibration has no curve
 * for the default) spans zero over the rounds, or tune's own check (the
 * dumps' profile or timed calls) refutes the model where the time is. */
static bool no_suggestion(const struct calibration *c, const char *const best[FN_COUNT], const double *t,
			  const struct cm_workload w[FN_COUNT], const struct dump *d, const struct tune_default *def,
			  char *why, size_t size)
{
	static const char *const glibc[FN_COUNT] = { "glibc", "glibc", "glibc" };
	const char *base = "the default";
	struct cm_spread s;
	double theirs;
	bool known = saving_against(c, d, best, t, def->variant, def->t, w, &s, &theirs);
	if (!known && (known = saving_against(c, d, best, t, glibc, def->t, w, &s, &theirs)))
		base = "glibc";
	/* a saving of exactly 0 in every round: the pick is that base itself */
	if (known && s.p10 <= 0 && s.p90 >= 0 && (s.p10 != 0 || s.p90 != 0)) {
		snprintf(why, size, "the model's saving against %s spans zero over the %u calibration rounds "
			 "(p10..p90 %.1f%% .. %.1f%%)", base, c->rounds, 100 * s.p10, 100 * s.p90);
		return true;
	}
	char refuted[300];
	if (!tune_check_refutes(c, d, w, refuted, sizeof refuted))
		return false;
	snprintf(why, size, "the check below measured the model more than 2x off where the time is (%s)", refuted);
	return true;
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
			enum threshold_name band = calibrate_rep_threshold((enum base_function)fn, bands.variant[b]->name);
			enum threshold_name above = calibrate_above_threshold(bands.variant[b]->name);
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
		char value[32];
		if (!used[t] || len >= size)
			continue;
		len += (size_t)snprintf(out + len, size - len, "%s%s %s [%s]", separator,
					threshold_keys((enum threshold_name)t)->name,
					threshold_text(def->t[t], value, sizeof value), setting_origin_name(def->origin[t]));
		separator = ", ";
	}
	if (len < size)
		snprintf(out + len, size - len, ")");
}

/* Where the dumps hold windows of calls: the best setting replayed on them
 * against the default (tools/tune/replay.c), said; why it is no
 * suggestion when that interval does not lie below 1 (it spans no change,
 * or the pick is slower), else false. */
static bool replay_refutes(const char *const best[FN_COUNT], const double *t, const struct dump *d,
			   const struct tune_default *def, char *why, size_t size, double *placed_by_timing)
{
	struct tune_setting mine, base;
	struct tune_replayed r;
	if (!d->window_count || !tune_setting_of(best, t, &mine) || !tune_setting_of(def->variant, def->t, &base) ||
	    !tune_replay(d, &mine, &base, (struct tune_replay_how){ TUNE_PLACE_BY_TIMING, false }, &r) ||
	    !r.has[FN_COUNT])
		return false;
	double calls = 0, placed = 0;
	for (int fn = 0; fn < FN_COUNT; fn++) {
		double n = (double)sum_buckets(d->hist.fn[fn].calls);
		calls += n, placed += n * r.by_timing[fn];
	}
	*placed_by_timing = calls > 0 ? placed / calls : 0;
	printf("\nReplayed on the dumps' %zu windows of calls: the model's pick takes %.3f (%.3f .. %.3f) of\n"
	       "the default's time in these functions\n", d->window_count, r.ratio[FN_COUNT], r.low[FN_COUNT],
	       r.high[FN_COUNT]);
	if (r.high[FN_COUNT] < 1)
		return false;
	snprintf(why, size, "replayed on the program's own calls it takes %.3f (%.3f .. %.3f) of the default's "
		 "time, %s", r.ratio[FN_COUNT], r.low[FN_COUNT], r.high[FN_COUNT],
		 r.low[FN_COUNT] > 1 ? "slower" : "an interval that spans no change");
	return true;
}

/* The calibration's worst ratio to glibc for fn's pick in the classes up
 * to 64 B with their data in the L3 or cold, into *k and *p; 0 where none
 * is above what the default rule allows: a pick that loses only there
 * (the masked copies, D48) is worth having where the program's small
 * copies are in the L1 or L2. */
static double small_cold_loss(const struct calibration *c, enum base_function fn, const char *variant, unsigned *k,
			      unsigned *p)
{
	double worst = CHOICE_LOSS_RATIO;
	bool found = false;
	for (unsigned i = 0; i < c->ratio_count; i++) {
		const struct band_ratios *r = &c->ratios[i];
		if (r->fn != fn || strcmp(r->variant, variant) != 0)
			continue;
		for (unsigned cls = 0; cls < CHOICE_CLASS_COUNT && choice_classes[cls].hi <= 64; cls++)
			for (unsigned place = PLACE_L3; place <= PLACE_COLD; place++)
				if (r->ratio[cls][place] > worst) {
					worst = r->ratio[cls][place];
					*k = cls, *p = place, found = true;
				}
	}
	return found ? worst : 0;
}

/* Beside a pick that loses where small copies are cold: whether this
 * program's are, and what told it (the replay placed by its timed calls),
 * or how to find out. */
static void print_small_cold(const struct calibration *c, const char *const best[FN_COUNT],
			     const struct cm_workload w[FN_COUNT], const struct dump *d, double placed_by_timing)
{
	for (int fn = 0; fn < FN_COUNT; fn++) {
		unsigned k = 0, p = 0;
		double loss = w[fn].count ? small_cold_loss(c, (enum base_function)fn, best[fn], &k, &p) : 0;
		if (!loss)
			continue;
		printf("  %s: %s loses to glibc where copies up to 64 B are not in the L1 or L2 (the\n"
		       "  calibration read %.2fx at %s, %s): it pays only where this program's small copies are in them;\n",
		       base_function_names[fn], best[fn], loss, choice_classes[k].name, placement_words[p]);
		if (placed_by_timing > 0)
			printf("  the replay above put %.0f%% of the calls where the program's own timed calls put them\n",
			       100 * placed_by_timing);
		else
			printf("  %s; record with --sequences and --timing,\n"
			       "  and the replay places the calls where the program's own timed calls put them\n",
			       d->window_count ? "the dumps hold no timed calls of glibc's functions"
					       : "the dumps hold no windows of calls to replay");
	}
}

/* The model's ratio to glibc of `best` in these functions: "all 0.93
 * (0.91..0.95), memcpy 0.90 (...)", as ab --in-process's "all" lines read. */
static void print_predicted_ratios(const struct calibration *c, const char *const best[FN_COUNT], const double *t,
				   const struct dump *d)
{
	struct tune_setting s;
	struct tune_replayed p;
	if (!tune_setting_of(best, t, &s) || !tune_model_setting(c, d, &s, &p))
		return;
	printf("  its B/A predicted in these functions (p10..p90 over the calibration's rounds), for that run's\n"
	       "  \"all\" lines: all %.3f (%.3f..%.3f)", p.ratio[FN_COUNT], p.low[FN_COUNT], p.high[FN_COUNT]);
	for (int fn = 0; fn < FN_COUNT; fn++)
		if (p.has[fn])
			printf(", %s %.3f (%.3f..%.3f)", base_function_names[fn], p.ratio[fn], p.low[fn], p.high[fn]);
	printf("\n");
}

/* The pick's saving against glibc as a share of the program's CPU time;
 * 0 where the dumps give no time to share it of. */
static double program_share(const struct calibration *c, const char *const best[FN_COUNT], const double *t,
			    const struct cm_workload w[FN_COUNT], const struct dump *d)
{
	static const char *const glibc[FN_COUNT] = { "glibc", "glibc", "glibc" };
	struct cm_spread saving;
	double theirs, cpu = (double)d->profile.process_cpu_ns;
	if (!d->profile.processes || !cpu || !saving_against(c, d, best, t, glibc, t, w, &saving, &theirs))
		return 0;
	return saving.median * theirs * tune_ns_per_unit(c) / cpu;
}

/* How to prove the pick on the program.  In one run, both settings inside
 * it (ab --in-process), which resolves 1% of these functions' time, with
 * the model's ratio beside it to read that run against; over whole runs
 * too only where the saving is 1% or more of the program's time, which
 * is what whole runs resolve (PAIRED_RESOLUTION). */
static void print_measure_it(const struct calibration *c, const char *const best[FN_COUNT], const double *t,
			     const struct cm_workload w[FN_COUNT], const struct dump *d, const char *env)
{
	const char *program = d->program_count == 1 ? d->programs[0].name : "PROGRAM";
	double share = program_share(c, best, t, w, d);
	printf("  measure it in one run: memshim ab --in-process --impl glibc --env '%s' -- %s [its arguments]\n", env,
	       program);
	print_predicted_ratios(c, best, t, d);
	if (share >= PAIRED_RESOLUTION)
		printf("  or over whole runs (it saves %.1f%% of the program's CPU time, which they resolve):\n"
		       "  memshim ab --runs auto --impl glibc --env '%s' -- %s [its arguments]\n", 100 * share, env, program);
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
	if (!calibrate_terms(c, best, w, t, s, terms, fns, &n))
		return;
	add_hazard(c, d, best, w, terms, n);
	struct cm_spread spread = cm_sum_spread(terms, n, c->rounds);
	char env[3 * BAND_TEXT_MAX + 200], why[500];
	double placed_by_timing = 0;
	env_line(best, w, t, env, sizeof env);
	if (replay_refutes(best, t, d, def, why, sizeof why, &placed_by_timing) ||
	    no_suggestion(c, best, t, w, d, def, why, sizeof why)) {
		printf("\nNo best setting: %s.\n"
		       "The model's pick, no suggestion until measured on the program itself:\n  %s\n", why, env);
	} else {
		printf("\nBest setting:\n%s\n", env);
		print_glibc_tunables(best, w, t);
	}
	print_measure_it(c, best, t, w, d, env);
	print_small_cold(c, best, w, d, placed_by_timing);
	printf("Predicted: %s in these functions (p10..p90 over the %u calibration rounds: %s .. %s)\n",
	       cost_text(c, spread.median, median, sizeof median), c->rounds, cost_text(c, spread.p10, p10, sizeof p10),
	       cost_text(c, spread.p90, p90, sizeof p90));
	default_label(def, label, sizeof label);
	print_against(c, label, best, t, def->variant, def->t, w, d);
	print_against(c, "glibc", best, t, glibc, def->t, w, d);
}

int tune_predict(const struct calibration *c, const struct dump *d, const struct tune_default *def)
{
	static struct cm_workload w[FN_COUNT];
	static struct candidate ranked[FN_COUNT][32];
	const char *best[FN_COUNT] = { "glibc", "glibc", "glibc" };
	double t[T_COUNT];
	calibrate_builtin_thresholds(t);
	printf("memshim tune: %u dump(s); costs in %s (%s)\n", d->files, c->unit, c->clock);
	printf("Each figure is the median over the calibration's %u rounds of that figure's own per-round\n"
	       "values (so medians need not add up), p10..p90 their spread.\n", c->rounds);
	for (int fn = 0; fn < FN_COUNT; fn++) {
		w[fn].count = 0;
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			cm_workload_add(&w[fn], (double)d->hist.fn[fn].calls[b], (double)d->hist.fn[fn].bytes[b]);
		if (!w[fn].count)
			continue;
		unsigned n = rank_variants(c, d, (enum base_function)fn, &w[fn], ranked[fn]);
		if (!n)
			continue;
		print_ranking(c, (enum base_function)fn, &d->hist.fn[fn], ranked[fn], n, def);
		best[fn] = ranked[fn][0].variant;
		memcpy(t, ranked[fn][0].t, sizeof t); /* a start; shared thresholds are settled jointly below */
	}
	if (!w[0].count && !w[1].count && !w[2].count) {
		printf("The dumps hold no calls: nothing to tune.\n");
		return 0;
	}
	calibrate_thresholds(c, best, w, t);
	print_prediction(c, best, t, w, d, def);
	tune_check(c, d, w);
	return 0;
}
/* The model's ratio of setting `mine` to glibc, for fn alone (fn ==
 * FN_COUNT: every function); false if a curve is missing. */
static bool model_ratio(const struct calibration *c, const struct tune_setting *mine, const double t[T_COUNT],
			const struct dump *d, int fn, double *ratio, double *low, double *high)
{
	static struct cm_workload w[FN_COUNT];
	static const char *const glibc[FN_COUNT] = { "glibc", "glibc", "glibc" };
	const char *setting[FN_COUNT];
	memset(w, 0, sizeof w);
	for (int f = 0; f < FN_COUNT; f++) {
		setting[f] = mine->text[f];
		for (unsigned b = 0; (fn == FN_COUNT || f == fn) && b < HIST_BUCKETS; b++)
			cm_workload_add(&w[f], (double)d->hist.fn[f].calls[b], (double)d->hist.fn[f].bytes[b]);
	}
	struct cm_spread saving;
	double theirs;
	if (!saving_against(c, d, setting, t, glibc, t, w, &saving, &theirs))
		return false;
	/* a saving's p90 is the ratio's p10 */
	*ratio = 1 - saving.median, *low = 1 - saving.p90, *high = 1 - saving.p10;
	return true;
}

bool tune_model_setting(const struct calibration *c, const struct dump *d, const struct tune_setting *s,
			struct tune_replayed *out)
{
	double t[T_COUNT];
	memset(out, 0, sizeof *out);
	tune_setting_thresholds(s, t);
	out->rounds = c->rounds;
	for (int fn = 0; fn <= FN_COUNT; fn++) {
		bool calls = fn == FN_COUNT || sum_buckets(d->hist.fn[fn].calls) > 0;
		out->has[fn] = calls && model_ratio(c, s, t, d, fn, &out->ratio[fn], &out->low[fn], &out->high[fn]);
	}
	return out->has[FN_COUNT];
}
