/* The calibration's choice (tools/calibrate/choose_bands.c) on synthetic
 * ratios whose answer is known.  The default rule: one variant serves
 * every size where it reads at most 1.03x glibc's time in every size class
 * and on the fleet distribution in every placement, and below 1 on the
 * fleet distribution beyond its interval; of those, the least on the fleet
 * distribution, and within 1% of it the CPU row's choice or else the
 * earlier.  Where none qualifies, bands where they can (a loss in a class
 * disqualifies a variant there; bands that lose to glibc once the exported
 * stub's cost is added give way to glibc's own), else glibc, with why each
 * candidate was not chosen.  One that would serve alone but for a few
 * losses has those cells named for timing again. */
#include "tools/calibrate/choose_bands.h"
#include "tests/unit_check.h"

#include <stdio.h>
#include <string.h>

/* Every cell, the fleet distribution's too, at `ratio`, its interval +-0.01. */
static struct band_ratios ratios_of(const char *name, double ratio)
{
	struct band_ratios r = { .fn = FN_MEMCPY };
	snprintf(r.variant, sizeof r.variant, "%s", name);
	for (int k = 0; k < CHOICE_CELLS; k++)
		for (int p = 0; p < PLACE_COUNT; p++) {
			r.ratio[k][p] = ratio;
			r.low[k][p] = ratio - 0.01;
			r.high[k][p] = ratio + 0.01;
		}
	return r;
}

static void cell(struct band_ratios *r, int k, int place, double ratio, double low)
{
	r->ratio[k][place] = ratio;
	r->low[k][place] = low;
	r->high[k][place] = ratio + (ratio - low);
}

static void classes(struct band_ratios *r, int first, int last, double ratio)
{
	for (int k = first; k <= last; k++)
		for (int p = 0; p < PLACE_COUNT; p++)
			cell(r, k, p, ratio, ratio - 0.01);
}

static const char *choose(const struct band_ratios *ratios, unsigned n, char *why)
{
	static char choice[BAND_TEXT_MAX];
	calibrate_choose_bands(ratios, n, NULL, choice, sizeof choice, why, 200);
	return choice;
}

int main(void)
{
	char why[200], choice_text[BAND_TEXT_MAX];
	struct band_ratios ratios[4];
	struct choice_cell cells[3];

	ratios[0] = ratios_of("glibc", 1);
	ratios[1] = ratios_of("fast", 0.7);
	check("one variant that wins everywhere: one band, and why", strcmp(choose(ratios, 2, why), "fast") == 0 &&
	      strstr(why, "0.70x glibc's time on the fleet distribution (at most 0.71), its worst cell 0.70x"));

	/* At most 1.03 in every cell: a win in L1 does not buy a loss cold. */
	cell(&ratios[1], 0, PLACE_COLD, 1.23, 1.21);
	check("a variant that loses 1.23x at 0-16 B cold is not the default, though 0.7 elsewhere",
	      strcmp(choose(ratios, 2, why), "fast") != 0);
	check("bands where one band cannot qualify and bands can", strcmp(choose(ratios, 2, why), "glibc:1024,fast") == 0);
	cell(&ratios[1], 0, PLACE_COLD, 1.025, 1.02);
	ratios[1].high[0][PLACE_COLD] = 1.03;
	check("1.03 is allowed", strcmp(choose(ratios, 2, why), "fast") == 0);
	cell(&ratios[1], 0, PLACE_COLD, 1.031, 1.03);
	check("1.031 is not", strcmp(choose(ratios, 2, why), "fast") != 0);
	ratios[1] = ratios_of("fast", 0.7);
	cell(&ratios[1], CHOICE_FLEET, PLACE_L3, 1.05, 1.04);
	check("the fleet distribution's cells count as a class's",
	      strcmp(choose(ratios, 2, why), "glibc") == 0 && strstr(why, "fast 1.05x at the fleet distribution, data in L3"));

	/* Below 1 on the fleet distribution beyond the interval. */
	ratios[1] = ratios_of("fast", 1.0);
	for (int p = 0; p < PLACE_COUNT; p++)
		cell(&ratios[1], CHOICE_FLEET, p, 0.99, 0.97);
	check("a fleet mean of 0.99 whose interval reaches 1.01 is no win", strcmp(choose(ratios, 2, why), "glibc") == 0 &&
	      strstr(why, "fast 0.99x on the fleet, not below 1"));
	for (int p = 0; p < PLACE_COUNT; p++)
		cell(&ratios[1], CHOICE_FLEET, p, 0.99, 0.985);
	check("one whose interval stays below 1 is", strcmp(choose(ratios, 2, why), "fast") == 0);

	/* The least on the fleet distribution; near ties to the row's choice. */
	ratios[1] = ratios_of("first", 0.90);
	ratios[2] = ratios_of("second", 0.90);
	classes(&ratios[2], 0, CHOICE_CLASS_COUNT - 1, 0.60); /* better in every class, not on the fleet */
	check("the least fleet mean wins, not the classes: a tie gives the earlier",
	      strcmp(choose(ratios, 3, why), "first") == 0);
	for (int p = 0; p < PLACE_COUNT; p++)
		cell(&ratios[2], CHOICE_FLEET, p, 0.85, 0.84);
	check("a fleet mean 5% lower wins", strcmp(choose(ratios, 3, why), "second") == 0);
	for (int p = 0; p < PLACE_COUNT; p++)
		cell(&ratios[2], CHOICE_FLEET, p, 0.895, 0.885);
	calibrate_choose_bands(ratios, 3, "second", choice_text, sizeof choice_text, why, 200);
	check("within 1% the CPU row's choice is kept", strcmp(choice_text, "second") == 0);
	calibrate_choose_bands(ratios, 3, "third", choice_text, sizeof choice_text, why, 200);
	check("else the earlier in the table", strcmp(choice_text, "first") == 0);

	/* A challenger shows each cell at most 1.03 with its interval; the
	 * CPU row's choice keeps its place on its medians. */
	ratios[1] = ratios_of("fast", 0.99); /* no class wins enough for bands of it */
	for (int p = 0; p < PLACE_COUNT; p++)
		cell(&ratios[1], CHOICE_FLEET, p, 0.8, 0.79);
	cell(&ratios[1], 5, PLACE_L3, 1.02, 0.98);
	check("a challenger whose interval reaches past 1.03 does not qualify",
	      strcmp(choose(ratios, 2, why), "glibc") == 0 && strstr(why, "fast 1.02x, up to 1.06x, at 4-32 KiB, data in L3"));
	calibrate_choose_bands(ratios, 2, "fast", choice_text, sizeof choice_text, why, 200);
	check("the row's choice with the same cells is kept", strcmp(choice_text, "fast") == 0);
	cell(&ratios[1], 5, PLACE_L3, 1.04, 1.0);
	calibrate_choose_bands(ratios, 2, "fast", choice_text, sizeof choice_text, why, 200);
	check("but not past 1.03 itself", strcmp(choice_text, "fast") != 0);

	/* Without a fleet distribution (a bench file of class cases), the classes judge. */
	ratios[1] = ratios_of("fast", 0.8);
	for (int p = 0; p < PLACE_COUNT; p++)
		cell(&ratios[1], CHOICE_FLEET, p, 0, 0);
	check("no fleet cells: the classes' mean", strcmp(choose(ratios, 2, why), "fast") == 0 &&
	      strstr(why, "over the classes"));

	/* Bands: a loss in a class is glibc's band there. */
	ratios[1] = ratios_of("fast", 0.7);
	classes(&ratios[1], 6, 6, 1.10);
	check("a larger class where it loses is glibc's band", strcmp(choose(ratios, 2, why), "fast:32768,glibc:262144,fast") == 0);
	ratios[1] = ratios_of("first", 1.2);
	ratios[2] = ratios_of("second", 1.1);
	ratios[3] = ratios_of("third", 1.05);
	check("every variant loses: glibc, and each one's worst cell, nearest first", strcmp(choose(ratios, 4, why), "glibc") == 0 &&
	      strstr(why, "none qualifies: third 1.05x at 0-16 B, data hot; second 1.10x at 0-16 B, data hot; "
			    "first 1.20x"));
	check("glibc alone: glibc", strcmp(choose(ratios, 1, why), "glibc") == 0);

	/* The stub probe's ratios: what the exported stub costs a call of a
	 * composition.  Bands that lose with it give way to glibc's own. */
	ratios[0] = ratios_of("glibc", 1);
	ratios[1] = ratios_of("fast", 0.7);
	classes(&ratios[1], 0, 1, 1.10);
	ratios[2] = ratios_of(STUB_PROBE_NAME, 1.01);
	check("bands whose stub costs 1%: kept", strcmp(choose(ratios, 3, why), "glibc:1024,fast") == 0);
	classes(&ratios[2], 0, 1, 1.10);
	check("bands whose stub costs 10% at small sizes: glibc's own", strcmp(choose(ratios, 3, why), "glibc") == 0);
	ratios[1] = ratios_of("fast", 0.7);
	check("one band needs no stub: its cost is not counted", strcmp(choose(ratios, 3, why), "fast") == 0 &&
	      !strstr(why, "stub"));
	check("the probe is never a band's variant", !strstr(choose(ratios, 3, why), STUB_PROBE_NAME));
	ratios[1] = ratios_of("fast", 0.7);
	classes(&ratios[1], 6, 6, 0.9);
	cell(&ratios[1], 6, PLACE_COLD, 1.10, 1.09);
	classes(&ratios[2], 6, 6, 1.20);
	check("a band past 1.03 is not one, however far glibc's stub strays there",
	      strcmp(choose(ratios, 3, why), "fast:32768,glibc:262144,fast") == 0);
	ratios[1] = ratios_of("fast", 0.7);
	cell(&ratios[1], 6, PLACE_COLD, 1.02, 0.99);
	check("nor one whose interval ends past it", strcmp(choose(ratios, 3, why), "fast:32768,glibc:262144,fast") == 0);
	ratios[1] = ratios_of("fast", 0.9);
	cell(&ratios[1], 5, PLACE_COLD, 1.06, 1.01);
	check("a loss of one that may be the default is timed again", calibrate_cells_to_confirm(&ratios[1], cells, 3) == 1 &&
	      cells[0].k == 5 && cells[0].p == PLACE_COLD);
	check("and it may not qualify while it loses", !calibrate_may_qualify(&ratios[1]));

	/* The cells the calibration times again: those of a variant whose fleet
	 * mean is below 1 but for a few cells above 1.03, the fleet's too. */
	ratios[1] = ratios_of("fast", 0.8);
	check("a variant that qualifies already: nothing to confirm", calibrate_cells_to_confirm(&ratios[1], cells, 3) == 0 &&
	      calibrate_may_qualify(&ratios[1]));
	cell(&ratios[1], 5, PLACE_COLD, 1.06, 0.95);
	cell(&ratios[1], 6, PLACE_L2, 1.04, 1.01);
	check("two losses: those two cells, in order",
	      calibrate_cells_to_confirm(&ratios[1], cells, 3) == 2 && cells[0].k == 5 && cells[0].p == PLACE_COLD &&
	      cells[1].k == 6 && cells[1].p == PLACE_L2);
	cell(&ratios[1], CHOICE_FLEET, PLACE_L3, 1.05, 1.0);
	check("the fleet distribution's among them", calibrate_cells_to_confirm(&ratios[1], cells, 3) == 3 &&
	      cells[2].k == CHOICE_FLEET && cells[2].p == PLACE_L3);
	classes(&ratios[1], 7, 7, 1.10);
	check("more losses than asked for: none (the variant is no near miss)", calibrate_cells_to_confirm(&ratios[1], cells, 3) == 0);
	ratios[1] = ratios_of("fast", 1.0);
	cell(&ratios[1], 5, PLACE_COLD, 1.06, 0.95);
	check("a variant whose fleet mean is not below 1: none", calibrate_cells_to_confirm(&ratios[1], cells, 3) == 0);

	return checks_finish();
}
