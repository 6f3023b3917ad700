/* The rule that picks a function's default variant from the calibration's
 * ratios to glibc by size band and placement (tools/tune_choose.c measures
 * them).  A variant qualifies when in no band and placement it loses to
 * glibc beyond noise: more than TIE_RATIO times glibc's time, with the
 * median's interval wholly above 1.  A default must not lose anywhere,
 * since nobody knows where a program's data lives, and a cell whose rounds
 * spread widely must not decide by chance.  Of those that qualify, the one
 * with the least geometric mean over the bands of its worst placement wins,
 * if that is below 1; else glibc's own functions. */
#include "config.h"

#include "tools/variant_choice.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const size_band_names[BAND_COUNT] = { "small", "medium", "large", "huge" };
const char *const placement_names[PLACE_COUNT] = { "l1", "l2", "cold" };

/* Within 2% of glibc counts as a tie: the same cell (small or medium band)
 * of three full calibrations on the shared development machine spread over
 * 0.023 (median of max - min over 180 cells; BENCHMARKS.md section 5).  A
 * variant slower than that somewhere is not a safe default. */
#define TIE_RATIO 1.02

/* The worst placement's ratio in band b, and over every band its geometric mean. */
static double worst_in_band(const struct band_ratios *r, int b)
{
	double worst = 0;
	for (int p = 0; p < PLACE_COUNT; p++)
		worst = r->ratio[b][p] > worst ? r->ratio[b][p] : worst;
	return worst;
}

static double score(const struct band_ratios *r)
{
	double log_sum = 0;
	for (int b = 0; b < BAND_COUNT; b++)
		log_sum += log(worst_in_band(r, b));
	return exp(log_sum / BAND_COUNT);
}

/* The cell where r loses most against glibc. */
static double worst_cell(const struct band_ratios *r, int *band, int *place)
{
	double worst = 0;
	for (int b = 0; b < BAND_COUNT; b++)
		for (int p = 0; p < PLACE_COUNT; p++)
			if (r->ratio[b][p] > worst) {
				worst = r->ratio[b][p];
				*band = b;
				*place = p;
			}
	return worst;
}

/* Whether r loses to glibc somewhere beyond noise: a cell whose median is
 * above TIE_RATIO and whose interval lies wholly above glibc's time. */
static bool loses_somewhere(const struct band_ratios *r)
{
	for (int b = 0; b < BAND_COUNT; b++)
		for (int p = 0; p < PLACE_COUNT; p++)
			if (r->ratio[b][p] > TIE_RATIO && r->low[b][p] > 1)
				return true;
	return false;
}

void variant_choose(const struct band_ratios *rows, unsigned n, char *choice, size_t choice_size, char *why,
		    size_t why_size)
{
	const struct band_ratios *best = NULL, *nearest = NULL;
	for (unsigned v = 0; v < n; v++) {
		if (strcmp(rows[v].variant, "glibc") == 0)
			continue;
		int b, p;
		double worst = worst_cell(&rows[v], &b, &p);
		if (!nearest || worst < worst_cell(nearest, &b, &p))
			nearest = &rows[v];
		if (!loses_somewhere(&rows[v]) && (!best || score(&rows[v]) < score(best)))
			best = &rows[v];
	}
	int b = 0, p = 0;
	if (best && score(best) < 1) {
		double worst = worst_cell(best, &b, &p);
		snprintf(choice, choice_size, "%s", best->variant);
		snprintf(why, why_size,
			 "%.2fx glibc's time over the size bands (geometric mean of each band's worst placement), "
			 "at most %.2fx (%s sizes, %s)", score(best), worst, size_band_names[b], placement_names[p]);
		return;
	}
	snprintf(choice, choice_size, "glibc");
	if (best)
		snprintf(why, why_size, "no variant beat glibc over the size bands (best: %s, %.2fx)",
			 best->variant, score(best));
	else if (nearest) {
		double worst = worst_cell(nearest, &b, &p); /* before b and p are read */
		snprintf(why, why_size,
			 "every variant lost to glibc somewhere, beyond noise and by more than %.0f%% "
			 "(least: %s, %.3fx at %s sizes, %s)",
			 100 * (TIE_RATIO - 1), nearest->variant, worst, size_band_names[b], placement_names[p]);
	} else {
		snprintf(why, why_size, "no vector variant runs on this CPU");
	}
}
