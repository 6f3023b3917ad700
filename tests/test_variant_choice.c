/* The calibration's band choice (tools/calibrate/choose_bands.c) on synthetic
 * ratios whose answer is known: a loss beyond noise disqualifies a variant
 * in that class (past 3% whatever the interval, past 2% with the interval
 * above 1), a wide interval around a small loss does not, glibc
 * serves where nothing beats it beyond the tie, near-ties keep the
 * neighbouring band's variant, adjacent classes merge into one band, and
 * bands that lose to glibc once the exported stub's cost is added give way
 * to one band, and above 1 KiB a win must exceed the stub probe's distance
 * from glibc (there glibc against itself: the noise).  A variant within
 * noise of glibc everywhere that wins beyond the noise in some class
 * serves every size alone; one that would but for a few losses above 1 KiB
 * has those cells named for timing again; the variant of the CPU's row is
 * kept where it loses nowhere and no other is clearly better. */
#include "tools/calibrate/choose_bands.h"
#include "tests/unit_check.h"

#include <stdio.h>
#include <string.h>


/* Every cell at `ratio`, its interval from ratio - 0.01. */
static struct band_ratios row(const char *name, double ratio)
{
	struct band_ratios r = { .fn = FN_MEMCPY };
	snprintf(r.variant, sizeof r.variant, "%s", name);
	for (int k = 0; k < CHOICE_CLASS_COUNT; k++)
		for (int p = 0; p < PLACE_COUNT; p++) {
			r.ratio[k][p] = ratio;
			r.low[k][p] = ratio - 0.01;
		}
	return r;
}

static void cell(struct band_ratios *r, int k, int place, double ratio, double low)
{
	r->ratio[k][place] = ratio;
	r->low[k][place] = low;
}

static void classes(struct band_ratios *r, int first, int last, double ratio)
{
	for (int k = first; k <= last; k++)
		for (int p = 0; p < PLACE_COUNT; p++)
			cell(r, k, p, ratio, ratio - 0.01);
}

static const char *choose(const struct band_ratios *rows, unsigned n, char *why)
{
	static char choice[BAND_TEXT_MAX];
	calibrate_choose_bands(rows, n, NULL, choice, sizeof choice, why, 200);
	return choice;
}

int main(void)
{
	char why[200], choice_text[BAND_TEXT_MAX];
	struct band_ratios rows[4];
	struct choice_cell cells[3];

	rows[0] = row("glibc", 1);
	rows[1] = row("fast", 0.7);
	check("one variant that wins everywhere: one band", strcmp(choose(rows, 2, why), "fast") == 0);

	classes(&rows[1], 0, 1, 1.10); /* loses up to 64 B */
	check("losing below 64 B: glibc for the small sizes (to 1 KiB, one band), the variant above",
	      strcmp(choose(rows, 2, why), "glibc:1024,fast") == 0 && strstr(why, "glibc to 1 KiB; fast above 1 KiB 0.70x"));

	rows[1] = row("fast", 0.7);
	cell(&rows[1], 0, PLACE_COLD, 1.10, 1.05);
	check("a loss beyond noise in one placement of a small class disqualifies it for the small band",
	      strcmp(choose(rows, 2, why), "glibc:1024,fast") == 0);

	cell(&rows[1], 0, PLACE_COLD, 1.10, 0.8);
	check("beyond 3% a median loses whatever its interval", strcmp(choose(rows, 2, why), "glibc:1024,fast") == 0);

	cell(&rows[1], 0, PLACE_COLD, 1.025, 0.8);
	check("a median within 3% with an interval down below 1 does not", strcmp(choose(rows, 2, why), "fast") == 0);

	cell(&rows[1], 0, PLACE_COLD, 1.025, 1.01);
	check("the same median with its interval above 1 does", strcmp(choose(rows, 2, why), "glibc:1024,fast") == 0);

	rows[1] = row("fast", 0.7);
	classes(&rows[1], 6, 6, 1.10);
	check("a larger class where it loses is glibc's band", strcmp(choose(rows, 2, why), "fast:32768,glibc:262144,fast") == 0);

	rows[1] = row("fast", 0.99);
	check("a win within the tie is no win: glibc", strcmp(choose(rows, 2, why), "glibc") == 0);

	rows[1] = row("first", 0.80);
	rows[2] = row("second", 0.79);
	classes(&rows[1], 5, 8, 0.60);
	classes(&rows[2], 5, 8, 0.59);
	check("near-ties keep one variant: no band for a hair",
	      strcmp(choose(rows, 3, why), "first") == 0);

	check("two variants that never lose: the one clearly better overall serves every size alone",
	      (classes(&rows[2], 5, 8, 0.50), strcmp(choose(rows, 3, why), "second") == 0 &&
	       strstr(why, "within noise of glibc in every class and placement, 0.64x over them: second at every size")));

	classes(&rows[1], 0, 4, 0.70);
	check("wins on both sides by two variants that never lose: still one band, the earlier within 5% overall",
	      strcmp(choose(rows, 3, why), "first") == 0);
	classes(&rows[1], 7, 7, 1.10);
	classes(&rows[2], 0, 0, 1.10);
	check("where neither serves every size alone, bands", strcmp(choose(rows, 3, why), "first:4096,second") == 0);

	rows[1] = row("first", 1.2);
	rows[2] = row("second", 1.1);
	rows[3] = row("third", 1.05);
	check("every variant loses: glibc", strcmp(choose(rows, 4, why), "glibc") == 0);

	check("glibc alone: glibc", strcmp(choose(rows, 1, why), "glibc") == 0);

	/* The stub probe's row: what the exported stub costs a call of a
	 * composition.  Bands that lose with it give way to one band. */
	rows[0] = row("glibc", 1);
	rows[1] = row("fast", 0.7);
	classes(&rows[1], 0, 3, 1.0); /* ties glibc to 1 KiB: glibc keeps those */
	rows[2] = row(STUB_PROBE_NAME, 1.01);
	check("a variant that ties glibc to 1 KiB and wins above serves every size alone, with no stub",
	      strcmp(choose(rows, 3, why), "fast") == 0 && strstr(why, "within noise of glibc in every class") &&
	      !strstr(why, "stub"));
	classes(&rows[2], 0, 1, 1.10);
	check("so is it with a stub costing 10% at small sizes: the stub is not in front of one band",
	      strcmp(choose(rows, 3, why), "fast") == 0);
	classes(&rows[1], 0, 1, 1.10);
	check("and where no variant can serve every size, glibc's own",
	      strcmp(choose(rows, 3, why), "glibc") == 0 && strstr(why, "so one band: glibc at every size"));
	rows[1] = row("fast", 0.7);
	check("one band needs no stub: its cost is not counted", strcmp(choose(rows, 3, why), "fast") == 0 &&
	      !strstr(why, "stub"));
	check("the probe is never a band's variant", !strstr(choose(rows, 3, why), STUB_PROBE_NAME));

	/* Above 1 KiB the probe is glibc against itself: its distance from 1
	 * is noise, and a win must be larger than that. */
	rows[1] = row("fast", 1.0);
	classes(&rows[1], 8, 8, 0.85);
	rows[2] = row(STUB_PROBE_NAME, 1.0);
	check("a variant that ties glibc everywhere and wins 15% in one class serves every size alone",
	      (classes(&rows[2], 8, 8, 1.02), strcmp(choose(rows, 3, why), "fast") == 0 &&
	       strstr(why, "within noise of glibc in every class and placement")));
	check("and so does one that wins 4% there: bound directly it needs no band's 5%, only to beat the noise",
	      (classes(&rows[1], 8, 8, 0.96), strcmp(choose(rows, 3, why), "fast") == 0));
	check("but not one that wins nowhere beyond the noise (glibc 2% off itself there)",
	      (classes(&rows[1], 8, 8, 0.985), strcmp(choose(rows, 3, why), "glibc") == 0));
	check("nor a 4% win where glibc measured 6% off itself",
	      (classes(&rows[1], 8, 8, 0.96), classes(&rows[2], 8, 8, 1.06), strcmp(choose(rows, 3, why), "glibc") == 0));
	classes(&rows[2], 8, 8, 1.02);
	classes(&rows[1], 8, 8, 0.85);
	classes(&rows[1], 5, 5, 1.10); /* loses at 4-32 KiB: no longer one band alone */
	check("a 15% win where glibc measures within 2% of itself makes a band",
	      (classes(&rows[2], 8, 8, 1.02), strcmp(choose(rows, 3, why), "glibc:4194304,fast") == 0));
	check("but not where glibc measured 25% off itself", (cell(&rows[2], 8, PLACE_L2, 1.25, 1.2),
	      strcmp(choose(rows, 3, why), "glibc") == 0));
	check("nor 20% under itself", (cell(&rows[2], 8, PLACE_L2, 0.80, 0.7),
	      strcmp(choose(rows, 3, why), "glibc") == 0));
	check("and without the probe, the 5% margin alone", strcmp(choose(rows, 2, why), "glibc:4194304,fast") == 0);

	/* The incumbent, the variant this CPU's row gives the function: kept
	 * where it loses nowhere, even tying glibc, unless another that serves
	 * alone is 5% better over all the classes. */
	rows[0] = row("glibc", 1);
	rows[1] = row("row_choice", 1.0);
	rows[2] = row("other", 0.97);
	rows[3] = row(STUB_PROBE_NAME, 1.0);
	classes(&rows[2], 0, 3, 1.0);
	check("without an incumbent, the variant that wins beyond the noise serves alone",
	      strcmp(choose(rows, 4, why), "other") == 0);
	calibrate_choose_bands(rows, 4, "row_choice", choice_text, sizeof choice_text, why, 200);
	check("an incumbent that ties glibc everywhere is kept over a win of 3% in a few classes",
	      strcmp(choice_text, "row_choice") == 0 && strstr(why, "this CPU's row's choice, kept"));
	rows[2] = row("other", 0.90);
	calibrate_choose_bands(rows, 4, "row_choice", choice_text, sizeof choice_text, why, 200);
	check("but not over one 10% better everywhere", strcmp(choice_text, "other") == 0 && !strstr(why, "kept"));
	rows[2] = row("other", 1.2);
	cell(&rows[1], 5, PLACE_COLD, 1.06, 1.01);
	calibrate_choose_bands(rows, 4, "row_choice", choice_text, sizeof choice_text, why, 200);
	check("an incumbent that loses somewhere is not kept", strcmp(choice_text, "glibc") == 0);
	calibrate_choose_bands(rows, 4, "glibc", choice_text, sizeof choice_text, why, 200);
	check("an incumbent naming glibc changes nothing", strcmp(choice_text, "glibc") == 0);
	check("an incumbent that loses has its losing cells timed again, though it wins nowhere",
	      calibrate_cells_to_confirm(&rows[1], &rows[0], &rows[3], true, cells, 3) == 1 && cells[0].k == 5 &&
	      cells[0].p == PLACE_COLD &&
	      calibrate_cells_to_confirm(&rows[1], &rows[0], &rows[3], false, cells, 3) == 0);

	/* The cells the calibration times again: those of a variant that
	 * would serve every size alone but for a few losses, in any class. */
	rows[0] = row("glibc", 1);
	rows[1] = row("fast", 0.8);
	rows[2] = row(STUB_PROBE_NAME, 1.0);
	check("a variant that serves alone already: nothing to confirm",
	      calibrate_cells_to_confirm(&rows[1], &rows[0], &rows[2], false, cells, 3) == 0);
	cell(&rows[1], 5, PLACE_COLD, 1.06, 0.95);
	cell(&rows[1], 6, PLACE_L2, 1.04, 1.01);
	check("two losses above 1 KiB: those two cells, in order",
	      calibrate_cells_to_confirm(&rows[1], &rows[0], &rows[2], false, cells, 3) == 2 && cells[0].k == 5 &&
	      cells[0].p == PLACE_COLD && cells[1].k == 6 && cells[1].p == PLACE_L2);
	classes(&rows[1], 7, 7, 1.10);
	check("more losses than asked for: none (the variant is no near miss)",
	      calibrate_cells_to_confirm(&rows[1], &rows[0], &rows[2], false, cells, 3) == 0);
	rows[1] = row("fast", 0.8);
	cell(&rows[1], 1, PLACE_L1, 1.10, 1.05);
	cell(&rows[1], 5, PLACE_COLD, 1.06, 0.95);
	check("a loss up to 1 KiB is timed again too, in class order",
	      calibrate_cells_to_confirm(&rows[1], &rows[0], &rows[2], false, cells, 3) == 2 && cells[0].k == 1 &&
		      cells[0].p == PLACE_L1 && cells[1].k == 5 && cells[1].p == PLACE_COLD);
	rows[1] = row("fast", 1.0);
	cell(&rows[1], 5, PLACE_COLD, 1.06, 0.95);
	check("a variant that wins nowhere: none", calibrate_cells_to_confirm(&rows[1], &rows[0], &rows[2], false, cells, 3) == 0);
	check("nor glibc's own row, nor the probe's",
	      calibrate_cells_to_confirm(&rows[0], &rows[0], &rows[2], false, cells, 3) == 0 &&
	      calibrate_cells_to_confirm(&rows[2], &rows[0], &rows[2], false, cells, 3) == 0);

	return checks_finish();
}
