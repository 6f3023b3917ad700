/* The calibration's variant choice (tools/variant_choice.c) on synthetic
 * ratios whose answer is known: a loss beyond noise disqualifies, a wide
 * interval around a high median does not, and the best qualifier wins only
 * if it beats glibc. */
#include "tools/variant_choice.h"

#include <stdio.h>
#include <string.h>

static int failed;

static void check(const char *what, int ok)
{
	printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	failed += !ok;
}

/* Every cell at `ratio`, its interval from ratio - 0.01. */
static struct band_ratios row(const char *name, double ratio)
{
	struct band_ratios r = { .fn = FN_MEMCPY };
	snprintf(r.variant, sizeof r.variant, "%s", name);
	for (int b = 0; b < BAND_COUNT; b++)
		for (int p = 0; p < PLACE_COUNT; p++) {
			r.ratio[b][p] = ratio;
			r.low[b][p] = ratio - 0.01;
		}
	return r;
}

static void cell(struct band_ratios *r, int band, int place, double ratio, double low)
{
	r->ratio[band][place] = ratio;
	r->low[band][place] = low;
}

static const char *choose(const struct band_ratios *rows, unsigned n, char *why)
{
	static char choice[24];
	variant_choose(rows, n, choice, sizeof choice, why, 200);
	return choice;
}

int main(void)
{
	char why[200];
	struct band_ratios rows[4];

	/* fast: 0.7 everywhere but small cold, 1.10 with a tight interval;
	 * noisy: 0.9 but huge cold 1.15 with an interval down to 0.7;
	 * steady: 0.97 everywhere, behind noisy's score of 0.96. */
	rows[0] = row("glibc", 1);
	rows[1] = row("fast", 0.7);
	cell(&rows[1], BAND_SMALL, PLACE_COLD, 1.10, 1.05);
	rows[2] = row("noisy", 0.9);
	cell(&rows[2], BAND_HUGE, PLACE_COLD, 1.15, 0.7);
	rows[3] = row("steady", 0.97);
	check("a loss beyond noise disqualifies; a wide interval does not", strcmp(choose(rows, 4, why), "noisy") == 0);
	check("why names the score and the worst cell",
	      strstr(why, "glibc's time over the size bands") && strstr(why, "1.15x (huge sizes, cold)"));

	cell(&rows[2], BAND_HUGE, PLACE_COLD, 1.15, 1.01);
	check("the same median with its interval above 1 disqualifies", strcmp(choose(rows, 4, why), "steady") == 0);

	cell(&rows[1], BAND_SMALL, PLACE_COLD, 1.02, 1.01);
	check("a median within the tie does not disqualify, whatever its interval",
	      strcmp(choose(rows, 4, why), "fast") == 0);

	rows[1] = row("fast", 1.01);
	rows[2] = row("noisy", 1.00);
	check("no qualifier below 1: glibc", strcmp(choose(rows, 3, why), "glibc") == 0 && strstr(why, "no variant beat"));

	cell(&rows[1], BAND_MEDIUM, PLACE_L1, 1.2, 1.1);
	cell(&rows[2], BAND_LARGE, PLACE_L2, 1.1, 1.05);
	check("every variant loses: glibc, and the least loser named",
	      strcmp(choose(rows, 3, why), "glibc") == 0 && strstr(why, "least: noisy, 1.100x at large sizes, l2"));

	check("glibc alone: glibc", strcmp(choose(rows, 1, why), "glibc") == 0 && strstr(why, "no vector variant"));

	printf("%d passed, %d failed\n", 7 - failed, failed);
	return failed != 0;
}
