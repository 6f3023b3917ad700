/* memshim tune --calibrate: the measurements from which the size bands the
 * default gives each function on this machine are chosen
 * (tools/calibrate/choose_bands.c), and the variant that serves each band.
 *
 * Each candidate (glibc's own functions, and every vector variant this CPU
 * runs, with and without its rep movsb range, at the thresholds just picked)
 * is timed against glibc's, interleaved, in each size class of
 * tools/calibrate/choose_bands.c (0-16 B up to 4-16 MiB), each in the four
 * placements of its data (tools/measure/placement.h).  Calls of 1 KiB and more are timed with a read of the
 * destination after each (tools/measure/measure.h, read_back), so that stores that
 * bypass the cache pay for it there.  memmove is timed with and without
 * overlapping copies, and counts the worse.  Beside them runs glibc's function
 * behind a copy of memshim's exported stub (tools/calibrate/stub_probe.h): what
 * a composition of bands costs the calls of its first band.
 *
 * Beside the classes, each function's fleet distribution is timed in the
 * same placements: the default rule judges the variants on it.  A candidate that
 * would serve every size alone but for a few cells where it lost has
 * those cells timed again, longer (confirm_losses).  Where a variant runs
 * another's very code in a class (an *_erms variant below its rep range, a
 * *_mask one above 16 B), that one is timed for both (stand_in).
 *
 * The ratios go to tools/calibrate/choose_bands.c, which picks the bands. */
#include "config.h"

#include "dispatch/builtin.h"
#include "dispatch/cpu_features.h"
#include "dispatch/cpu_rows.h"
#include "shim/thresholds.h"
#include "tools/calibrate/measure_classes.h"
#include "tools/measure/caches.h"
#include "tools/calibrate/curves.h"
#include "tools/measure/library.h"
#include "tools/measure/dist_file.h"
#include "tools/measure/measure.h"
#include "tools/measure/path_trace.h"
#include "tools/measure/progress.h"
#include "tools/calibrate/stub_probe.h"
#include "tools/calibrate/choose_bands.h"
#include "tools/util/hazards.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

size_t calibrate_classes_largest(void)
{
	return choice_classes[CHOICE_CLASS_COUNT - 1].hi;
}

unsigned calibrate_classes_steps(void) { return FN_COUNT * CHOICE_CELLS * PLACE_COUNT; }

/* Each function's fleet distribution, for its CHOICE_FLEET cells (NULL:
 * not found, and those cells are not measured). */
static struct size_dist *fleet[FN_COUNT];

bool calibrate_is_candidate(const char *name)
{
	const struct variant *v = variant_named(name);
	return v && (v == VARIANT(glibc) || v->vector_bytes);
}

_Static_assert(VARIANT_COUNT + 1 <= MEASURE_MAX_VARIANTS, "the table's variants and the stub probe fit a measurement");

static unsigned load_candidates(struct measure_variant *v, unsigned *glibc)
{
	unsigned n = 0;
	for (unsigned i = 0; i < variant_count && n < MEASURE_MAX_VARIANTS; i++) {
		const struct variant *entry = &variant_table[i];
		if (!variant_usable(entry) || !calibrate_is_candidate(entry->name))
			continue;
		v[n] = measure_variant_of(entry);
		if (entry == VARIANT(glibc))
			*glibc = n;
		n++;
	}
	if (n < MEASURE_MAX_VARIANTS)
		v[n++] = stub_probe_over(&v[*glibc]);
	return n;
}

/* The thresholds picked from the curves, which the candidates run with;
 * the rep range's stop is the configuration's (the CPU row's, or the
 * environment's), which the library keeps too. */
static const struct thresholds *picked_thresholds(const struct calibration *c)
{
	static struct thresholds picked;
	struct thresholds builtin;
	builtin_thresholds(cpu_features(), &builtin);
	picked = (struct thresholds){ .movsb = c->movsb, .stosb = c->stosb, .nt = c->nt,
				      .movsb_stop = config_get()->thresholds.movsb_stop,
				      .set_stosb_beyond_nt = builtin.set_stosb_beyond_nt };
	return &picked;
}

/* Whether a *_erms variant of fn runs its twin's very code in all of class
 * k: wholly below its rep threshold, or wholly at or above the
 * non-temporal threshold, which the vector code tests first. */
static bool runs_twin_code(const struct calibration *c, enum base_function fn, int k)
{
	size_t threshold = fn == FN_MEMSET ? c->stosb : c->movsb;
	return choice_classes[k].hi < threshold || choice_classes[k].lo >= c->nt;
}

/* The variant whose very code `entry` runs in all of class k of fn, and
 * whose measurement therefore stands for it there: its twin below its rep
 * band, its unmasked variant above 16 bytes, in turn; `entry` itself where
 * its code is its own.  Timing the same code twice would only let noise
 * between the two make a band or flip a choice. */
static const struct variant *stand_in(const struct calibration *c, const struct variant *entry, enum base_function fn,
				      int k)
{
	if (variant_twin(entry) != entry && runs_twin_code(c, fn, k))
		return stand_in(c, variant_twin(entry), fn, k);
	if (variant_unmasked(entry) != entry && runs_unmasked_code(fn, choice_classes[k].lo))
		return stand_in(c, variant_unmasked(entry), fn, k);
	return entry;
}

/* Whether candidate v is timed in class b: where another variant's
 * measurement stands for it, merge_stand_ins() gives it those figures. */
static bool timed_in(const struct calibration *c, const struct measure_variant *v, enum base_function fn, int b)
{
	const struct variant *entry = variant_named(v->name);
	return !entry || b == CHOICE_FLEET || stand_in(c, entry, fn, b) == entry;
}

/* The candidates timed in class b, into sub (glibc's index set), and
 * where each sits in s->variants. */
static void candidates_in(const struct calibration *c, const struct measure_settings *s, enum base_function fn,
			  int b, struct measure_settings *sub, struct measure_variant *subset, unsigned *from)
{
	*sub = *s;
	sub->round_times = NULL; /* the curves' alone */
	sub->variants = subset;
	sub->variant_count = 0;
	for (unsigned v = 0; v < s->variant_count; v++) {
		if (!timed_in(c, &s->variants[v], fn, b))
			continue;
		if (v == s->glibc)
			sub->glibc = sub->variant_count;
		from[sub->variant_count] = v;
		subset[sub->variant_count++] = s->variants[v];
	}
}

/* The cases of a function's cell: memmove's copies apart, and overlapping
 * (the destination within n bytes of the source, either side), as
 * memshim cpu-row reads bench's class and class-overlap cases. */
static unsigned cases_of(enum base_function fn) { return fn == FN_MEMMOVE ? 2 : 1; }

/* Times sub's variants against glibc in cell b (a class, or the fleet
 * distribution), placement p: each variant's ratio (and its interval) that
 * of the case it did worse in. */
static void measure_cell(const struct measure_settings *sub, enum base_function fn, int b, enum placement p,
			 unsigned processes, struct measure_result *r)
{
	for (unsigned overlap = 0; overlap < (b == CHOICE_FLEET ? 1 : cases_of(fn)); overlap++) {
		struct measure_case bc = { .fn = fn, .kind = CASE_CLASS, .place = p, .src_offset = -1, .dst_offset = -1,
					 .overlap = overlap };
		if (b == CHOICE_FLEET) {
			bc.kind = CASE_DIST;
			bc.dist = fleet[fn];
		} else {
			bc.lo = choice_classes[b].lo;
			bc.hi = choice_classes[b].hi;
			bc.read_back = bc.lo >= CALIBRATE_READ_BACK_FROM;
		}
		struct measure_result worse;
		measure_run_processes(sub, &bc, processes, overlap ? &worse : r);
		for (unsigned i = 0; overlap && i < sub->variant_count; i++)
			if (worse.ratio[i] > r->ratio[i]) {
				r->ratio[i] = worse.ratio[i];
				r->ratio_low[i] = worse.ratio_low[i];
				r->ratio_high[i] = worse.ratio_high[i];
			}
	}
}

static void measure_function(struct calibration *c, const struct measure_settings *s, enum base_function fn,
			     struct progress *bar)
{
	struct band_ratios *ratios = &c->ratios[c->ratio_count];
	for (unsigned v = 0; v < s->variant_count; v++) {
		ratios[v] = (struct band_ratios){ .fn = fn };
		snprintf(ratios[v].variant, sizeof ratios[v].variant, "%s", s->variants[v].name);
	}
	for (int b = 0; b < CHOICE_CELLS; b++) {
		struct measure_settings sub;
		struct measure_variant subset[MEASURE_MAX_VARIANTS];
		unsigned from[MEASURE_MAX_VARIANTS];
		candidates_in(c, s, fn, b, &sub, subset, from);
		for (int p = 0; p < PLACE_COUNT; p++) {
			char detail[80];
			snprintf(detail, sizeof detail, "%s variants, %s, %s", base_function_names[fn],
				 b == CHOICE_FLEET ? "fleet" : choice_classes[b].name, placement_names[p]);
			progress_step(bar, detail);
			if (b == CHOICE_FLEET && !fleet[fn])
				continue;
			struct measure_result r;
			measure_cell(&sub, fn, b, (enum placement)p, 1, &r);
			for (unsigned i = 0; i < sub.variant_count; i++) {
				ratios[from[i]].ratio[b][p] = r.ratio[i];
				ratios[from[i]].low[b][p] = r.ratio_low[i];
				ratios[from[i]].high[b][p] = r.ratio_high[i];
			}
		}
	}
	c->ratio_count += s->variant_count;
}

/* Each variant's ratios where another variant's measurement stands for it
 * (stand_in). */
static void merge_stand_ins(const struct calibration *c, struct band_ratios *ratios, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		const struct variant *v = variant_named(ratios[i].variant);
		for (int k = 0; v && k < CHOICE_CLASS_COUNT; k++) {
			const struct variant *in = stand_in(c, v, ratios[i].fn, k);
			for (unsigned j = 0; in != v && j < n; j++)
				if (strcmp(ratios[j].variant, in->name) == 0)
					for (int p = 0; p < PLACE_COUNT; p++) {
						ratios[i].ratio[k][p] = ratios[j].ratio[k][p];
						ratios[i].low[k][p] = ratios[j].low[k][p];
						ratios[i].high[k][p] = ratios[j].high[k][p];
					}
		}
	}
}

/* A variant that the rule could make the default but for a few cells
 * where it read above 1.03 (calibrate_cells_to_confirm): those cells are
 * timed again, it against glibc alone, until the interval is within +-1%
 * or a quarter of a second is spent, and that measurement stands; so are
 * the fleet cells of a variant that may be the default.  A screening of a
 * few pairs reads a copy of megabytes 1.3-1.8x glibc's now and then, and
 * one such cell flipped a choice from one calibration to the next; a true
 * loss loses again. */
#define CONFIRM_STOP ((struct measure_stop){ .width = 0.02, .seconds = 0.25, .min_pairs = 20, .max_pairs = 401 })
#define CONFIRM_CELLS_MAX 6
#define CONFIRM_PROCESSES 3
/* The A/A arm that states the calibration's resolution: as narrow as the
 * bench's where a second a cell allows. */
#define AA_STOP ((struct measure_stop){ .width = 0.01, .seconds = 1.0, .min_pairs = 40, .max_pairs = 801 })
/* tune --calibrate --tiny, the tests' calibration: the same steps with a
 * few pairs each.  The two stops above hold a cell up to a quarter of a
 * second and a second, whatever the level: on a loaded machine, where
 * cells run to their time, seven of the 7.7 CPU seconds of a tiny
 * calibration; the tests check what is printed and written, which a
 * tiny calibration's choices need not be good for. */
#define TINY_CONFIRM_STOP ((struct measure_stop){ .width = 0.02, .seconds = 0.02, .min_pairs = 3, .max_pairs = 20 })
#define TINY_AA_STOP ((struct measure_stop){ .width = 0.01, .seconds = 0.05, .min_pairs = 5, .max_pairs = 40 })
static bool tiny_stops;

static const struct band_ratios *ratios_named(const struct band_ratios *ratios, unsigned n, const char *name)
{
	for (unsigned v = 0; v < n; v++)
		if (strcmp(ratios[v].variant, name) == 0)
			return &ratios[v];
	return NULL;
}

/* Variant v's cell timed again; where another variant's measurement stands
 * for v's there, that variant is timed (merge_stand_ins then copies it). */
static void measure_again(const struct calibration *c, const struct measure_settings *s, enum base_function fn,
			  struct band_ratios *ratios, unsigned v, struct choice_cell cell, unsigned processes)
{
	const struct variant *entry = variant_named(ratios[v].variant);
	const struct variant *in = entry && cell.k != CHOICE_FLEET ? stand_in(c, entry, fn, cell.k) : entry;
	unsigned timed = v;
	for (unsigned i = 0; in != entry && i < s->variant_count; i++)
		if (strcmp(s->variants[i].name, in->name) == 0)
			timed = i;
	struct measure_variant pair[2] = { s->variants[s->glibc], s->variants[timed] };
	struct measure_settings sub = *s;
	sub.variants = pair;
	sub.variant_count = 2;
	sub.glibc = 0;
	sub.round_times = NULL;
	sub.stop = tiny_stops ? TINY_CONFIRM_STOP : CONFIRM_STOP;
	struct measure_result r;
	measure_cell(&sub, fn, cell.k, cell.p, processes, &r);
	ratios[timed].ratio[cell.k][cell.p] = r.ratio[1];
	ratios[timed].low[cell.k][cell.p] = r.ratio_low[1];
	ratios[timed].high[cell.k][cell.p] = r.ratio_high[1];
}

/* The variant this CPU's shipped row gives fn as its one band; NULL
 * without a row, where it has bands, or where it gives glibc's own. */
static const char *row_incumbent(enum base_function fn)
{
	struct band_list bands;
	const char *why;
	if (!cpu_row_choice(cpu_features(), fn, &bands, &why) || bands.count != 1 || bands.variant[0] == VARIANT(glibc))
		return NULL;
	return bands.variant[0]->name;
}

/* The hazards this CPU's shipped row measured, onto the calibration's
 * ratios of fn: the calibration times no hazard case (they take minutes),
 * and a variant that falls off a cliff on this class must not come back
 * as the default by a calibration. */
static void row_hazards(enum base_function fn, struct band_ratios *ratios, unsigned n)
{
	const struct cpu_row *row = cpu_row_for(cpu_features());
	const char *list = row ? row->hazards[fn] : NULL;
	for (unsigned v = 0; list && v < n; v++) {
		double x = hazard_multiple(list, ratios[v].variant, ratios[v].hazard_case, sizeof ratios[v].hazard_case);
		ratios[v].hazard = x > 0 ? x : 0;
	}
}

/* The cells that decide whether r qualifies: its fleet cells and, of the
 * others, the CONFIRM_CELLS_MAX whose intervals reach highest above 1,
 * into cells. */
static unsigned deciding_cells(const struct band_ratios *r, struct choice_cell *cells)
{
	unsigned n = 0;
	for (int p = 0; p < PLACE_COUNT; p++)
		cells[n++] = (struct choice_cell){ CHOICE_FLEET, (enum placement)p };
	for (unsigned i = 0; i < CONFIRM_CELLS_MAX; i++) {
		struct choice_cell worst = { -1, PLACE_L1 };
		double reach = 1;
		for (int k = 0; k < CHOICE_CLASS_COUNT; k++)
			for (int p = 0; p < PLACE_COUNT; p++) {
				bool taken = false;
				for (unsigned j = PLACE_COUNT; j < n; j++)
					taken |= cells[j].k == k && cells[j].p == (enum placement)p;
				double high = r->high[k][p] > 0 ? r->high[k][p] : r->ratio[k][p];
				if (!taken && high > reach)
					worst = (struct choice_cell){ k, (enum placement)p }, reach = high;
			}
		if (worst.k < 0)
			break;
		cells[n++] = worst;
	}
	return n;
}

/* Of the candidates not yet confirmed that may qualify, the one with the
 * least fleet mean; -1 if none. */
static int next_to_confirm(const struct band_ratios *ratios, unsigned n, const bool *confirmed)
{
	int next = -1;
	for (unsigned v = 0; v < n; v++)
		if (!confirmed[v] && calibrate_may_qualify(&ratios[v]) &&
		    (next < 0 || calibrate_fleet_mean(&ratios[v]) < calibrate_fleet_mean(&ratios[next])))
			next = (int)v;
	return next;
}

/* A candidate that loses in a few cells has them timed again.  Then the
 * candidates that may qualify, the least fleet mean first, have the cells
 * that decide them timed again in CONFIRM_PROCESSES processes, each with
 * buffers of its own, until one qualifies or CONFIRM_CANDIDATES have been:
 * on a Zen 5 a masked copy's cells read 1.01-1.07 in the L3 from one
 * process to the next, and a choice made in one process flipped between
 * calibrations. */
#define CONFIRM_CANDIDATES 2
static void confirm_losses(const struct calibration *c, const struct measure_settings *s, enum base_function fn,
			   struct band_ratios *ratios, const char *incumbent)
{
	const struct band_ratios *glibc = ratios_named(ratios, s->variant_count, "glibc");
	const struct band_ratios *stub = ratios_named(ratios, s->variant_count, STUB_PROBE_NAME);
	bool confirmed[s->variant_count];
	struct choice_cell cells[PLACE_COUNT + CONFIRM_CELLS_MAX];
	for (unsigned v = 0; v < s->variant_count; v++) {
		confirmed[v] = &ratios[v] == glibc || &ratios[v] == stub;
		unsigned count = confirmed[v] ? 0 : calibrate_cells_to_confirm(&ratios[v], cells, CONFIRM_CELLS_MAX);
		for (unsigned i = 0; i < count; i++)
			measure_again(c, s, fn, ratios, v, cells[i], 1);
	}
	merge_stand_ins(c, ratios, s->variant_count);
	for (unsigned round = 0; fleet[fn] && round < CONFIRM_CANDIDATES; round++) {
		int v = next_to_confirm(ratios, s->variant_count, confirmed);
		if (v < 0)
			break;
		confirmed[v] = true;
		unsigned count = deciding_cells(&ratios[v], cells);
		for (unsigned i = 0; i < count; i++)
			measure_again(c, s, fn, ratios, (unsigned)v, cells[i], CONFIRM_PROCESSES);
		merge_stand_ins(c, ratios, s->variant_count);
		if (calibrate_qualifies(&ratios[v], incumbent))
			break;
	}
}

/* The calibration's resolution (struct calibration's aa_deviation): glibc
 * against itself on each fleet distribution in each placement, measured as
 * the fleet cells of a candidate are confirmed. */
static double aa_deviation(const struct measure_settings *s)
{
	double worst = 0;
	struct measure_settings aa = *s;
	aa.variants = &s->variants[s->glibc];
	aa.variant_count = 1;
	aa.glibc = 0;
	aa.aa = true;
	aa.stop = tiny_stops ? TINY_AA_STOP : AA_STOP;
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (int p = 0; fleet[fn] && p < PLACE_COUNT; p++) {
			struct measure_case bc = { .fn = fn, .kind = CASE_DIST, .dist = fleet[fn], .place = p,
						 .src_offset = -1, .dst_offset = -1 };
			struct measure_result r;
			measure_run(&aa, &bc, &r);
			worst = fmax(worst, measure_aa_deviation(&r));
		}
	return worst;
}

/* Where glibc read further than this from itself, the machine is too busy
 * for the choice to rest on: the shipped row's stands. */
#define RESOLUTION_NEEDED 0.02

/* The shipped row's choice for fn, with why, where the calibration could
 * not resolve its own; false where there is no row. */
static bool keep_row(const struct calibration *c, enum base_function fn, char *choice, char *why)
{
	struct band_list bands;
	const char *row_why;
	if (!cpu_row_choice(cpu_features(), fn, &bands, &row_why))
		return false;
	band_list_format(&bands, choice);
	snprintf(why, CALIBRATION_WHY_MAX, "this CPU's row's choice kept: the machine was too busy to resolve 1%% "
		 "(glibc against itself read up to %.1f%% from 1)", 100 * c->aa_deviation);
	return true;
}

void calibrate_measure_classes(struct calibration *c, struct measure_settings *s, struct progress *bar, bool tiny)
{
	tiny_stops = tiny;
	static struct measure_variant candidates[MEASURE_MAX_VARIANTS];
	char error[400];
	for (int fn = 0; fn < FN_COUNT; fn++)
		if (!fleet[fn])
			fleet[fn] = size_dist_load_fleet((enum base_function)fn, error, sizeof error);
	s->variants = candidates;
	s->variant_count = load_candidates(candidates, &s->glibc);
	s->round_times = NULL;
	s->thresholds = picked_thresholds(c);
	c->ratio_count = 0;
	for (int fn = 0; fn < FN_COUNT; fn++) {
		unsigned first = c->ratio_count;
		measure_function(c, s, (enum base_function)fn, bar);
		merge_stand_ins(c, &c->ratios[first], c->ratio_count - first);
	}
	c->aa_deviation = aa_deviation(s);
	for (int fn = 0; fn < FN_COUNT; fn++) {
		struct band_ratios *ratios = &c->ratios[fn * s->variant_count];
		const char *incumbent = row_incumbent((enum base_function)fn);
		if (c->aa_deviation > RESOLUTION_NEEDED && keep_row(c, fn, c->choice[fn], c->choice_why[fn]))
			continue;
		confirm_losses(c, s, (enum base_function)fn, ratios, incumbent);
		row_hazards((enum base_function)fn, ratios, s->variant_count);
		calibrate_choose_bands(ratios, s->variant_count, incumbent, c->choice[fn], sizeof c->choice[fn],
				       c->choice_why[fn], CALIBRATION_WHY_MAX);
		struct band_list bands; /* its bounds in K and M, as people write them */
		if (!band_list_parse(c->choice[fn], &bands))
			band_list_format(&bands, c->choice[fn]);
	}
}
