/* bench's statistics over rounds (tools/util/round_stats.c) on times whose
 * answers are known: each variant's ratio pairs its round with the
 * baseline's same round, whatever the order of the variants. */
#include "tools/util/round_stats.h"

#include "tests/unit_check.h"

#include <math.h>
#include <string.h>

static int near(double a, double b) { return fabs(a - b) < 1e-9; }

int main(void)
{
	/* Three variants, the baseline in the middle; the first round is slow
	 * for all of them (a busy neighbour), and each variant is always half
	 * or twice the baseline's time in its round. */
	static const struct bench_variant variants[3] = { { .name = "half" }, { .name = "glibc" }, { .name = "twice" } };
	static double t[3][BENCH_MAX_ROUNDS] = {
		{ 50, 5, 5, 5, 5 },
		{ 100, 10, 10, 10, 10 },
		{ 200, 20, 20, 20, 20 },
	};
	struct bench_settings s = { .variants = variants, .variant_count = 3, .glibc = 1, .rounds = 5 };
	struct bench_result r;
	memset(&r, 0, sizeof r);
	bench_summarise(&s, 5, t, &r);
	printf("  half %.3f (%.3f..%.3f), twice %.3f (%.3f..%.3f)\n", r.ratio[0], r.ratio_low[0], r.ratio_high[0],
	       r.ratio[2], r.ratio_low[2], r.ratio_high[2]);
	check("a variant before the baseline: 0.5x, its interval 0.5..0.5",
	      near(r.ratio[0], 0.5) && near(r.ratio_low[0], 0.5) && near(r.ratio_high[0], 0.5));
	check("a variant after the baseline: 2x, its interval 2..2 (the baseline's rounds kept in order)",
	      near(r.ratio[2], 2) && near(r.ratio_low[2], 2) && near(r.ratio_high[2], 2));
	check("the baseline against itself: 1x", near(r.ratio[1], 1) && near(r.ratio_low[1], 1));
	check("medians and p10..p90 of the times", near(r.median[1], 10) && near(r.p10[1], 10) && near(r.p90[1], 64));
	check("the times are left in round order", t[1][0] == 100 && t[2][0] == 200);
	return checks_finish();
}
