/* The rule that picks a function's size bands from the calibration's
 * ratios to glibc by size class and placement (tools/calibrate/measure_classes.c
 * measures them).
 *
 * The small classes (to 1 KiB) take one variant together; in each larger
 * class a variant qualifies when in no placement it loses to glibc: its
 * interval ending more than CHOICE_LOSS_RATIO times glibc's time, the bound the
 * default rule sets every cell.  Nobody knows where a program's data
 * lives, so a class must not lose anywhere.  Of those that qualify, the one with the least
 * geometric mean over the placements serves the class, if that beats
 * glibc by more than 5%; else glibc does.
 *
 * Near-ties decide the stability of the result: variants that share their
 * code at a size (avx2 and avx2_erms below the rep movsb threshold) measure
 * within noise of each other, and a choice by a hair would flip from one
 * calibration to the next, and each band costs a little at every call.
 * So within KEEP_NEIGHBOUR_RATIO of the best a class keeps the variant of
 * the class below it (or, in a second pass, takes that of the class above);
 * else the first in the table's order within that ratio of the best (the
 * table lists each variant before its *_erms form, identical below the rep
 * movsb threshold); and adjacent classes with one variant make one band.
 *
 * Before any of that, the default rule: one variant serves every size,
 * bound directly with no stub in front, where one qualifies: at most
 * CHOICE_LOSS_RATIO times glibc's time in every size class and on the function's
 * fleet distribution, in every placement (L1, L2, L3, cold), and below
 * glibc on the fleet distribution (the geometric mean over the placements)
 * beyond its interval.  Of those the least fleet mean wins (by_rule).
 * A challenger to the CPU row's choice shows the first with its intervals.
 * A variant that wins big where data is cached and loses cold is not a
 * default: memshim tune offers it to programs whose copies are cached.
 * Bands, below, are for where no one variant qualifies.
 *
 * First of all, the hazard catalogue (tools/util/hazards.h): a variant more
 * than HAZARD_LOSS_RATIO times the best variant's time in any of its cases
 * is no candidate, for a program that meets the cliff pays it on every
 * such call.  Where glibc itself falls out and no variant qualifies by the
 * rule, the default is the hazard-free variant whose worst cell is least.
 *
 * The ratios named STUB_PROBE_NAME, glibc behind a copy of the exported stub,
 * are no candidate: up to 1 KiB they are what bands add to each call, and bands
 * that lose to glibc with them become one band; above, they are the noise a
 * win must exceed (win_margin). */
#include "config.h"

#include "tools/calibrate/choose_bands.h"

#include "tools/util/hazards.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CHOICE_CLASS(lo, hi, name) { lo, hi, name },
const struct choice_class choice_classes[CHOICE_CLASS_COUNT] = { MEMSHIM_SIZE_CLASSES(CHOICE_CLASS) };
#undef CHOICE_CLASS

/* Within 2% of glibc counts as a tie: about how far the same cell moves
 * between full calibrations (D21). */
#define TIE_RATIO 1.02
/* A class leaves glibc only for a variant faster by more than this, and
 * keeps its neighbour's variant unless another is better by more than this:
 * a band costs a compare or a dispatch at every call, and bands that win by
 * a hair come and go between calibrations. */
#define KEEP_NEIGHBOUR_RATIO 1.05

/* A median past this loses whatever its interval: a default may be at most
 * 3% slower than glibc anywhere, noise included. */

static double noise(const struct band_ratios *stub, int k);
static double fleet_mean(const struct band_ratios *r, bool high);
static bool is_incumbent(const struct band_ratios *r, const char *incumbent);

/* Whether r loses to glibc in a placement of a class in [first, last]:
 * its interval (its median where none was measured) ends beyond
 * CHOICE_LOSS_RATIO.  A band is a challenger to glibc, held to what the default
 * rule holds a challenger to (qualifies). */
static bool loses_in(const struct band_ratios *r, int first, int last)
{
	for (int k = first; k <= last; k++)
		for (int p = 0; p < PLACE_COUNT; p++)
			if ((r->high[k][p] > 0 ? r->high[k][p] : r->ratio[k][p]) > CHOICE_LOSS_RATIO)
				return true;
	return false;
}

/* r's geometric mean ratio to glibc over the classes [first, last] and the placements. */
static double score(const struct band_ratios *r, int first, int last)
{
	double log_sum = 0;
	for (int k = first; k <= last; k++)
		for (int p = 0; p < PLACE_COUNT; p++)
			log_sum += log(r->ratio[k][p] > 0 ? r->ratio[k][p] : 1e-9);
	return exp(log_sum / ((last - first + 1) * PLACE_COUNT));
}

static double worst_placement(const struct band_ratios *r, int k)
{
	double worst = 0;
	for (int p = 0; p < PLACE_COUNT; p++)
		worst = r->ratio[k][p] > worst ? r->ratio[k][p] : worst;
	return worst;
}

/* The ratios that serve the classes [first, last]: `previous` (the class
 * below's) where it is nearly the best or, with no win beyond the margin,
 * ties with glibc; else, if the best beats glibc by the factor win_margin,
 * the earliest qualifier nearly as good as it. */
static const struct band_ratios *choose_span(const struct band_ratios *ratios, unsigned n, int first, int last,
					     const struct band_ratios *glibc, const struct band_ratios *previous,
					     double win_margin)
{
	const struct band_ratios *best = NULL;
	for (unsigned v = 0; v < n; v++)
		if (&ratios[v] != glibc && !loses_in(&ratios[v], first, last) &&
		    (!best || score(&ratios[v], first, last) < score(best, first, last)))
			best = &ratios[v];
	bool wins = best && score(best, first, last) * win_margin < 1;
	if (previous != glibc && !loses_in(previous, first, last) &&
	    score(previous, first, last) <= (wins ? score(best, first, last) * KEEP_NEIGHBOUR_RATIO : TIE_RATIO))
		return previous;
	if (!wins)
		return glibc;
	double near = score(best, first, last) * KEEP_NEIGHBOUR_RATIO;
	for (unsigned v = 0; v < n; v++)
		if (&ratios[v] != glibc && !loses_in(&ratios[v], first, last) && score(&ratios[v], first, last) <= near)
			return &ratios[v];
	return best;
}

/* Appends text to out (size bytes), cut to fit. */
static void append(char *out, size_t size, const char *text)
{
	size_t len = strlen(out);
	snprintf(out + len, size - len, "%s", text);
}

/* n as "64 B", "4 KiB" or "16 MiB". */
static void size_text(size_t n, char *out, size_t size)
{
	if (n && n % (1u << 20) == 0)
		snprintf(out, size, "%zu MiB", n >> 20);
	else if (n && n % 1024 == 0)
		snprintf(out, size, "%zu KiB", n >> 10);
	else
		snprintf(out, size, "%zu B", n);
}

/* "glibc to 64 B" or "avx2 above 64 B 0.55-0.97x" for the band of classes
 * first..last, with the range of its worst placements' ratios. */
static void describe_band(const struct band_ratios *r, int first, int last, char *why, size_t why_size)
{
	double lo = 1e9, hi = 0;
	for (int k = first; k <= last; k++) {
		double w = worst_placement(r, k);
		lo = w < lo ? w : lo;
		hi = w > hi ? w : hi;
	}
	bool top = last + 1 == CHOICE_CLASS_COUNT;
	char bound[24], text[160];
	size_text(top ? choice_classes[first].lo - 1 : choice_classes[last].hi, bound, sizeof bound);
	snprintf(text, sizeof text, "%s%s %s%s%s", first ? "; " : "", r->variant,
		 !top ? "to" : first ? "above" : "at every size", first || !top ? " " : "", first || !top ? bound : "");
	append(why, why_size, text);
	if (strcmp(r->variant, "glibc") != 0) {
		snprintf(text, sizeof text, lo < hi ? " %.2f-%.2fx" : " %.2fx", lo, hi);
		append(why, why_size, text);
	}
}

/* The classes up to 1 KiB make one band: a band bound among small sizes
 * costs their calls a compare that a program's mixed sizes mispredict, and
 * past the first two bands a dispatch, a measurable part of a small copy's
 * time (D22), which a per-class ratio does not see. */
#define SMALL_CLASSES 4

/* The measurement's noise in class k: above the small classes the stub
 * probe is glibc against itself but for a fraction of a nanosecond, so its
 * greatest distance from 1 over the placements is how far glibc measured
 * from itself there; 1 where nothing says. */
static double noise(const struct band_ratios *stub, int k)
{
	double n = 1;
	for (int p = 0; stub && k >= SMALL_CLASSES && p < PLACE_COUNT; p++)
		n = fmax(n, 1 + fabs(stub->ratio[k][p] - 1));
	return n;
}

/* The factor by which a variant must beat glibc to take class k from it:
 * beyond the noise, and by 5% at least; wins of a few percent came and
 * went between calibrations (D23). */
static double win_margin(const struct band_ratios *stub, int k) { return fmax(KEEP_NEIGHBOUR_RATIO, noise(stub, k)); }

/* Each class's server: the small classes one together, each larger one its
 * own, then merged from the top down where a class can join the band above. */
static void choose_servers(const struct band_ratios *ratios, unsigned n, const struct band_ratios *glibc,
			   const struct band_ratios *stub, const struct band_ratios *serves[CHOICE_CLASS_COUNT])
{
	for (int k = 0; k < CHOICE_CLASS_COUNT; k++)
		serves[k] = k < SMALL_CLASSES
			? choose_span(ratios, n, 0, SMALL_CLASSES - 1, glibc, glibc, KEEP_NEIGHBOUR_RATIO)
			: choose_span(ratios, n, k, k, glibc, serves[k - 1], win_margin(stub, k));
	for (int k = CHOICE_CLASS_COUNT - 2; k >= SMALL_CLASSES; k--)
		if (serves[k] != glibc && serves[k + 1] != glibc && !loses_in(serves[k + 1], k, k) &&
		    score(serves[k + 1], k, k) <= score(serves[k], k, k) * KEEP_NEIGHBOUR_RATIO)
			serves[k] = serves[k + 1];
}

/* Whether the servers make more than one band, which the exported stub
 * then decides between at every call (one band is bound directly). */
static bool several_bands(const struct band_ratios *const serves[CHOICE_CLASS_COUNT])
{
	for (int k = 1; k < CHOICE_CLASS_COUNT; k++)
		if (serves[k] != serves[0])
			return true;
	return false;
}

/* With the stub's cost added (the probe's ratio above 1), the class and
 * placement where the bands lose most to glibc, if they lose beyond
 * CHOICE_LOSS_RATIO anywhere: the stub's compare and jump are in front of every
 * call of a composition, and at small sizes they alone can lose.  Above
 * 1 KiB they are a small part of a call, and the probe's ratio is noise. */
static bool stub_makes_lose(const struct band_ratios *const serves[CHOICE_CLASS_COUNT],
			    const struct band_ratios *stub, int *worst_k, int *worst_p, double *worst)
{
	*worst = 0;
	for (int k = 0; k < SMALL_CLASSES; k++)
		for (int p = 0; p < PLACE_COUNT; p++) {
			double extra = stub->ratio[k][p] > 1 ? stub->ratio[k][p] - 1 : 0;
			double with_stub = serves[k]->ratio[k][p] + extra;
			if (with_stub > *worst) {
				*worst = with_stub;
				*worst_k = k;
				*worst_p = p;
			}
		}
	return *worst > CHOICE_LOSS_RATIO;
}

/* Where the bands lose with the stub's cost: glibc's own (one variant for
 * every size was the rule's to find, and found none). */
static void keep_one_band(const struct band_ratios *glibc, const struct band_ratios *stub,
			  const struct band_ratios *serves[CHOICE_CLASS_COUNT])
{
	int k = 0, p = 0;
	double worst;
	if (!stub || !several_bands(serves) || !stub_makes_lose(serves, stub, &k, &p, &worst))
		return;
	for (k = 0; k < CHOICE_CLASS_COUNT; k++)
		serves[k] = glibc;
}

unsigned calibrate_cells_to_confirm(const struct band_ratios *r, struct choice_cell *cells, unsigned max)
{
	double mean = fleet_mean(r, false);
	if (!(mean > 0 && mean < 1))
		return 0;
	unsigned count = 0;
	for (int k = 0; k < CHOICE_CELLS; k++)
		for (int p = 0; p < PLACE_COUNT; p++)
			if (r->ratio[k][p] > CHOICE_LOSS_RATIO && count++ < max)
				cells[count - 1] = (struct choice_cell){ k, (enum placement)p };
	return count <= max ? count : 0;
}

/* The default rule's figure for r: the geometric mean of its ratios on the
 * function's fleet distribution over the placements measured (of their
 * intervals' upper ends if `high`); where no fleet distribution was
 * measured (a bench file of class cases only), over every class and
 * placement instead.  0 where nothing was measured. */
static double fleet_mean(const struct band_ratios *r, bool high)
{
	double log_sum = 0;
	unsigned count = 0;
	for (int pass = 0; pass < 2 && !count; pass++)
		for (int k = pass ? 0 : CHOICE_FLEET; k < (pass ? CHOICE_CLASS_COUNT : CHOICE_CELLS); k++)
			for (int p = 0; p < PLACE_COUNT; p++)
				if (r->ratio[k][p] > 0) {
					double x = high && r->high[k][p] > 0 ? r->high[k][p] : r->ratio[k][p];
					log_sum += log(x);
					count++;
				}
	return count ? exp(log_sum / count) : 0;
}

/* r's worst cell over every class and the fleet distribution in every
 * placement measured: its ratio (its interval's upper end if `high`), and
 * where (*k, *p). */
static double worst_cell(const struct band_ratios *r, bool high, int *k, int *p)
{
	double worst = 0;
	for (int i = 0; i < CHOICE_CELLS; i++)
		for (int j = 0; j < PLACE_COUNT; j++) {
			double x = high && r->high[i][j] > 0 ? r->high[i][j] : r->ratio[i][j];
			if (x > worst)
				worst = x, *k = i, *p = j;
		}
	return worst;
}

static const char *cell_name(int k) { return k == CHOICE_FLEET ? "the fleet distribution" : choice_classes[k].name; }

/* Whether r may be the default by the rule: at most CHOICE_LOSS_RATIO in every
 * cell, and its fleet mean below glibc's beyond its interval.  A challenger
 * to the CPU row's choice must show the first too, every cell's interval
 * (over the processes that timed it) ending at most CHOICE_LOSS_RATIO; the row's
 * choice keeps its place while no median is past it.  Cells move by a few
 * percent from one process to the next, and a choice made on medians
 * alone flipped between calibrations. */
static bool qualifies(const struct band_ratios *r, bool shown)
{
	int k = 0, p = 0;
	double mean = fleet_mean(r, true);
	return worst_cell(r, shown, &k, &p) <= CHOICE_LOSS_RATIO && mean > 0 && mean < 1;
}

bool calibrate_qualifies(const struct band_ratios *r, const char *incumbent)
{
	return qualifies(r, !is_incumbent(r, incumbent));
}

double calibrate_fleet_mean(const struct band_ratios *r) { return fleet_mean(r, false); }

bool calibrate_may_qualify(const struct band_ratios *r)
{
	int k = 0, p = 0;
	double mean = fleet_mean(r, false);
	return worst_cell(r, false, &k, &p) <= CHOICE_LOSS_RATIO && mean > 0 && mean < 1;
}

static bool is_incumbent(const struct band_ratios *r, const char *incumbent)
{
	return incumbent && strcmp(r->variant, incumbent) == 0;
}

/* The default rule: of the variants that qualify, the one with the least
 * fleet mean; within RULE_TIE of it, the incumbent (this CPU's row's
 * choice) or else the first in the table, so that near ties do not flip
 * the choice from one calibration to the next.  NULL if none qualifies. */
#define RULE_TIE 1.01
static const struct band_ratios *by_rule(const struct band_ratios *ratios, unsigned n, const struct band_ratios *glibc,
					 const char *incumbent)
{
	const struct band_ratios *best = NULL, *near = NULL;
	bool ok[n];
	for (unsigned v = 0; v < n; v++) {
		ok[v] = &ratios[v] != glibc && calibrate_qualifies(&ratios[v], incumbent);
		if (ok[v] && (!best || fleet_mean(&ratios[v], false) < fleet_mean(best, false)))
			best = &ratios[v];
	}
	for (unsigned v = 0; best && v < n; v++) {
		if (!ok[v] || fleet_mean(&ratios[v], false) > fleet_mean(best, false) * RULE_TIE)
			continue;
		if (is_incumbent(&ratios[v], incumbent))
			return &ratios[v];
		near = near ? near : &ratios[v];
	}
	return near;
}

/* One variant for every size, bound directly, where one qualifies by the
 * rule (by_rule); says so in why. */
static bool one_variant_everywhere(const struct band_ratios *ratios, unsigned n, const struct band_ratios *glibc,
				   const char *incumbent, const struct band_ratios *serves[CHOICE_CLASS_COUNT],
				   char *why, size_t why_size)
{
	const struct band_ratios *one = by_rule(ratios, n, glibc, incumbent);
	if (!one)
		return false;
	for (int k = 0; k < CHOICE_CLASS_COUNT; k++)
		serves[k] = one;
	int k = 0, p = 0;
	double worst = worst_cell(one, false, &k, &p);
	bool fleet = one->ratio[CHOICE_FLEET][PLACE_L1] > 0;
	snprintf(why, why_size, "%.2fx glibc's time %s (at most %.2f), its worst cell %.2fx (%s, %s): ",
		 fleet_mean(one, false), fleet ? "on the fleet distribution" : "over the classes", fleet_mean(one, true),
		 worst, cell_name(k), placement_words[p]);
	return true;
}

/* For a choice of glibc's own: why the nearest candidates (the least
 * fleet means) are not the default, as many as there is room for. */
static void say_why_not(const struct band_ratios *ratios, unsigned n, const struct band_ratios *glibc,
			const char *incumbent, char *why, size_t why_size)
{
	bool said[n];
	snprintf(why, why_size, "glibc; none qualifies:");
	for (unsigned v = 0; v < n; v++)
		said[v] = &ratios[v] == glibc;
	for (unsigned round = 0; round < n; round++) {
		int next = -1, k = 0, p = 0;
		for (unsigned v = 0; v < n; v++)
			if (!said[v] && (next < 0 || fleet_mean(&ratios[v], false) < fleet_mean(&ratios[next], false)))
				next = (int)v;
		if (next < 0)
			return;
		said[next] = true;
		const struct band_ratios *r = &ratios[next];
		double worst = worst_cell(r, false, &k, &p);
		char text[120];
		if (worst > CHOICE_LOSS_RATIO)
			snprintf(text, sizeof text, " %s %.2fx at %s, %s;", r->variant, worst, cell_name(k), placement_words[p]);
		else if (!is_incumbent(r, incumbent) && (worst = worst_cell(r, true, &k, &p)) > CHOICE_LOSS_RATIO)
			snprintf(text, sizeof text, " %s %.2fx, up to %.2fx, at %s, %s;", r->variant, r->ratio[k][p], worst,
				 cell_name(k), placement_words[p]);
		else
			snprintf(text, sizeof text, " %s %.2fx on the fleet, not below 1;", r->variant, fleet_mean(r, false));
		if (strlen(why) + strlen(text) >= why_size)
			return;
		append(why, why_size, text);
	}
}

/* Whether r falls off a cliff of the hazard catalogue: more than
 * HAZARD_LOSS_RATIO times the best variant's time in some case. */
static bool hazardous(const struct band_ratios *r) { return r->hazard > HAZARD_LOSS_RATIO; }

/* "glibc 27.3x the best at hazard alias4k:8192:4k+1; ",
 * or nothing where r falls off no cliff. */
static void hazard_lead(const struct band_ratios *r, char *lead, size_t size)
{
	lead[0] = '\0';
	if (hazardous(r))
		snprintf(lead, size, "%s %.1fx the best at hazard %s; ", r->variant, r->hazard, r->hazard_case);
}

/* Where glibc falls out and no variant qualifies by the rule: the variant
 * free of hazards whose worst cell is least, said in why; NULL if none. */
static const struct band_ratios *least_worst(const struct band_ratios *ratios, unsigned n,
					     const struct band_ratios *glibc, char *why, size_t why_size)
{
	const struct band_ratios *best = NULL;
	double best_worst = 0;
	int k = 0, p = 0, best_k = 0, best_p = 0;
	for (unsigned v = 0; v < n; v++) {
		double worst = worst_cell(&ratios[v], false, &k, &p);
		if (&ratios[v] != glibc && worst > 0 && (!best || worst < best_worst))
			best = &ratios[v], best_worst = worst, best_k = k, best_p = p;
	}
	if (best)
		snprintf(why, why_size, "none within %.2f everywhere; of the hazard-free the least worst cell, %.2fx (%s, %s), "
			 "%.2fx on the fleet: ", CHOICE_LOSS_RATIO, best_worst, cell_name(best_k), placement_words[best_p],
			 fleet_mean(best, false));
	return best;
}

/* The variants of all[0..n_all) that may be chosen into ratios: the stub
 * probe apart into *stub, and those that fall off a hazard's cliff left
 * out, but for glibc, the baseline (*glibc); returns how many. */
static unsigned candidates(const struct band_ratios *all, unsigned n_all, struct band_ratios *ratios,
			   const struct band_ratios **stub, const struct band_ratios **glibc)
{
	unsigned n = 0;
	*stub = *glibc = NULL;
	for (unsigned v = 0; v < n_all && n < CALIBRATE_MAX_RATIOS; v++)
		if (strcmp(all[v].variant, STUB_PROBE_NAME) == 0)
			*stub = &all[v];
		else if (strcmp(all[v].variant, "glibc") == 0 || !hazardous(&all[v]))
			ratios[n++] = all[v];
	for (unsigned v = 0; v < n; v++)
		if (strcmp(ratios[v].variant, "glibc") == 0)
			*glibc = &ratios[v];
	return n;
}

void calibrate_choose_bands(const struct band_ratios *all, unsigned n_all, const char *incumbent, char *choice,
			    size_t choice_size, char *why, size_t why_size)
{
	const struct band_ratios *glibc, *stub, *serves[CHOICE_CLASS_COUNT], *one;
	struct band_ratios ratios[CALIBRATE_MAX_RATIOS];
	unsigned n = candidates(all, n_all, ratios, &stub, &glibc);
	choice[0] = why[0] = '\0';
	if (!glibc) {
		snprintf(choice, choice_size, "glibc");
		snprintf(why, why_size, "glibc was not measured");
		return;
	}
	if (one_variant_everywhere(ratios, n, glibc, incumbent, serves, why, why_size))
		;
	else if (hazardous(glibc) && (one = least_worst(ratios, n, glibc, why, why_size)) != NULL)
		for (int k = 0; k < CHOICE_CLASS_COUNT; k++)
			serves[k] = one;
	else {
		choose_servers(ratios, n, glibc, stub, serves);
		keep_one_band(glibc, stub, serves);
		bool single = !several_bands(serves); /* one variant everywhere was the rule's to give */
		for (int k = 0; single && k < CHOICE_CLASS_COUNT; k++)
			serves[k] = glibc;
	}
	for (int k = 0, first = 0; k < CHOICE_CLASS_COUNT; k++) {
		if (k + 1 < CHOICE_CLASS_COUNT && serves[k + 1] == serves[k])
			continue;
		char band[64];
		if (k + 1 < CHOICE_CLASS_COUNT)
			snprintf(band, sizeof band, "%s%s:%zu", choice[0] ? "," : "", serves[k]->variant, choice_classes[k].hi);
		else
			snprintf(band, sizeof band, "%s%s", choice[0] ? "," : "", serves[k]->variant);
		append(choice, choice_size, band);
		describe_band(serves[k], first, k, why, why_size);
		first = k + 1;
	}
	if (strcmp(choice, "glibc") != 0)
		append(why, why_size, " (worst placement's ratio to glibc)");
	else
		say_why_not(ratios, n, glibc, incumbent, why, why_size);
	size_t len = strlen(why); /* "...;" ends a list */
	if (len && why[len - 1] == ';')
		why[len - 1] = '\0';
	char lead[160], rest[CALIBRATION_WHY_MAX];
	hazard_lead(glibc, lead, sizeof lead);
	snprintf(rest, sizeof rest, "%s", why);
	snprintf(why, why_size, "%s%s", lead, rest);
}
