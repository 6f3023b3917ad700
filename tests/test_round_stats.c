/* bench's statistics over rounds (tools/measure/round_stats.c) on times whose
 * answers are known: each variant's ratio pairs its round with the
 * baseline's same round, for every variant summarised against it. */
#include "tools/measure/round_stats.h"

#include "tests/unit_check.h"

#include <math.h>

static int near(double a, double b) { return fabs(a - b) < 1e-9; }

int main(void)
{
	/* The first round is slow for all (a busy neighbour); each variant is
	 * always half or twice the baseline's time in its round. */
	double glibc[5] = { 100, 10, 10, 10, 10 }, half[5] = { 50, 5, 5, 5, 5 }, twice[5] = { 200, 20, 20, 20, 20 };
	/* in bench's order: the baseline summarised against itself first */
	struct round_summary g = round_summarise(glibc, glibc, 5), h = round_summarise(half, glibc, 5),
			     w = round_summarise(twice, glibc, 5);
	printf("  half %.3f (%.3f..%.3f), twice %.3f (%.3f..%.3f)\n", h.ratio, h.ratio_low, h.ratio_high, w.ratio,
	       w.ratio_low, w.ratio_high);
	check("the baseline against itself: 1x", near(g.ratio, 1) && near(g.ratio_low, 1) && near(g.ratio_high, 1));
	check("after the baseline's own summary: 0.5x, its interval 0.5..0.5 (rounds paired)",
	      near(h.ratio, 0.5) && near(h.ratio_low, 0.5) && near(h.ratio_high, 0.5));
	check("and 2x, its interval 2..2", near(w.ratio, 2) && near(w.ratio_low, 2) && near(w.ratio_high, 2));
	check("medians and p10..p90 of the times", near(g.median, 10) && near(g.p10, 10) && near(g.p90, 64));
	check("the times are left in round order", glibc[0] == 100 && half[0] == 50);
	struct round_summary none = round_summarise(half, glibc, 0);
	check("no rounds: zeros", none.ratio == 0 && none.median == 0);
	return checks_finish();
}
