/* The cost model on synthetic curves and workloads whose answers are known. */
#include "tools/calibrate/cost_model.h"
#include "tests/unit_check.h"

#include <math.h>
#include <stdio.h>


/* cost = fixed + size / per_unit in round 0, 1% dearer each later round. */
static void linear(struct cm_curve *c, double fixed, double per_unit)
{
	c->points = 0;
	c->rounds = 5;
	/* every 64 B to 4 KiB, then powers of two: exact, the curves being straight */
	for (double size = 0; size <= 65536; size += size < 4096 ? 64 : size, c->points++) {
		c->size[c->points] = size;
		for (unsigned r = 0; r < c->rounds; r++)
			c->cost[c->points][r] = (fixed + size / per_unit) * (1 + 0.01 * r);
	}
	cm_curve_finish(c);
}

/* One call in every bucket of the histogram format up to 64 KiB, at its
 * middle: the candidates are the buckets' boundaries. */
static void every_bucket(struct cm_workload *w, const double *bounds)
{
	w->count = 0;
	for (unsigned i = 0; bounds[i + 1] <= 65536; i++)
		cm_workload_add(w, 1, (bounds[i] + bounds[i + 1] - 1) / 2);
}

static struct cm_curve a, b, c;

/* The objective of two placements: context is their two terms. */
static double worst_placement(const void *context)
{
	const struct cm_term *placed = context;
	return cm_worst_placement_sum(&placed[0], &placed[1], 1);
}
static double candidates[512];

/* An objective of one threshold: 100 at 2048, `dip` less at 8192, else 101. */
static double flat_field, flat_dip;
static double flat_objective(const void *context)
{
	(void)context;
	return flat_field == 2048 ? 100 : flat_field == 8192 ? 100 - flat_dip : 101;
}

int main(void)
{
	struct cm_workload w;
	unsigned n = cm_threshold_candidates(candidates, 512);
	check("candidates end with never", candidates[n - 1] == CM_NEVER);
	check("candidates: the buckets' boundaries", candidates[0] == 1 && candidates[16] == 17 &&
	      candidates[17] == 18 && candidates[18] == 20 && candidates[n - 2] == 64u << 20);

	linear(&a, 5, 10);  /* cheap to start, dear per byte */
	linear(&b, 55, 20); /* the other way round: equal to a at 1000 B */
	linear(&c, 155, 40); /* equal to b at 4000 B */
	check("interpolation between grid points", fabs(cm_cost_at(&a, 1000, CM_MEDIAN) - 105 * 1.02) < 1e-9);
	check("proportional beyond the grid", fabs(cm_cost_at(&a, 131072, 0) - 2 * (5 + 6553.6)) < 1e-6);

	struct cm_workload one = { 0 };
	cm_workload_add(&one, 10, 1000);
	struct cm_setting fixed = cm_fixed(&a);
	check("total = calls x cost at the mean size", fabs(cm_total(&fixed, &one, 0) - 10 * 15) < 1e-9);

	every_bucket(&w, candidates);
	struct cm_setting split = { .below = &a, .band = &b, .above_from = CM_NEVER, .floor = -1 };
	struct cm_term term = { &split, &w, 0 };
	double *band_from = &split.band_from;
	double best = cm_best_threshold(&term, 1, &band_from, 1, candidates, n);
	printf("  a below, b above: best threshold %.0f, total %.1f\n", split.band_from, best);
	check("a/b crossover at 1000 B found within one bucket", split.band_from >= 896 && split.band_from <= 1088);
	struct cm_setting fixed_b = cm_fixed(&b);
	check("the split beats either curve alone",
	      best < cm_total(&fixed, &w, CM_MEDIAN) && best < cm_total(&fixed_b, &w, CM_MEDIAN));

	struct cm_setting three = { .below = &a, .band = &b, .above = &c, .band_from = split.band_from, .floor = -1 };
	struct cm_term term3 = { &three, &w, 0 };
	double *above_from = &three.above_from;
	cm_best_threshold(&term3, 1, &above_from, 1, candidates, n);
	printf("  b below, c above: best threshold %.0f\n", three.above_from);
	check("b/c crossover at 4000 B found within one bucket", three.above_from >= 3584 && three.above_from <= 4608);

	/* One threshold shared by two functions: the crossover of the sum.
	 * Workload x: only 512 B calls (a wins), y: only 2 KiB calls (b wins):
	 * any threshold in (512, 2048] serves both. */
	struct cm_workload x = { 0 }, y = { 0 };
	cm_workload_add(&x, 100, 100 * 512);
	cm_workload_add(&y, 100, 100 * 2048);
	struct cm_setting sx = split, sy = split;
	struct cm_term both[2] = { { &sx, &x, 0 }, { &sy, &y, 0 } };
	double *shared[2] = { &sx.band_from, &sy.band_from };
	cm_best_threshold(both, 2, shared, 2, candidates, n);
	check("a shared threshold serves both workloads", sx.band_from > 512 && sx.band_from <= 2048 && sy.band_from == sx.band_from);

	struct cm_setting floored = split;
	floored.floor = 2000;
	check("sizes up to the floor keep the first curve",
	      cm_setting_cost(&floored, 1500, 0) == cm_cost_at(&a, 1500, 0) &&
		      cm_setting_cost(&floored, 3000, 0) == cm_cost_at(&b, 3000, 0));

	struct cm_spread s = cm_sum_spread(&term, 1, 5);
	double median = cm_total(&split, &w, CM_MEDIAN);
	check("p10 <= median <= p90 of per-round totals", s.p10 < median && median < s.p90);
	struct cm_term alone = { &fixed, &w, 0 };
	struct cm_spread saving = cm_saving_spread(&term, 1, &alone, 1, 5);
	check("the split saves against a alone in every round", saving.p10 > 0 && saving.p90 < 1);

	/* Two sizes whose cheap rounds differ: the median curve takes each
	 * size's median from another round, and its total (18 against 20, a
	 * 10% saving) lies outside every round's (10, 10, 18: 50%, 50%, 10%). */
	static struct cm_curve base, mixed;
	base.points = mixed.points = 2;
	base.rounds = mixed.rounds = 3;
	const double cheap[2][3] = { { 1, 9, 9 }, { 9, 1, 9 } };
	for (unsigned p = 0; p < 2; p++) {
		base.size[p] = mixed.size[p] = 100.0 * (p + 1);
		for (unsigned r = 0; r < 3; r++) {
			base.cost[p][r] = 10;
			mixed.cost[p][r] = cheap[p][r];
		}
	}
	cm_curve_finish(&base);
	cm_curve_finish(&mixed);
	struct cm_workload two = { 0 };
	cm_workload_add(&two, 1, 100);
	cm_workload_add(&two, 1, 200);
	struct cm_setting sm = cm_fixed(&mixed), sb = cm_fixed(&base);
	struct cm_term tm = { &sm, &two, 0 }, tb = { &sb, &two, 0 };
	struct cm_spread sum = cm_sum_spread(&tm, 1, 3), save = cm_saving_spread(&tm, 1, &tb, 1, 3);
	check("the median curve's total lies outside the rounds' p10..p90 (the case the spread's median is for)",
	      cm_sum(&tm, 1, CM_MEDIAN) > sum.p90);
	check("the sum's median lies within its p10..p90", sum.p10 <= sum.median && sum.median <= sum.p90);
	check("the saving's median lies within its p10..p90, and is the middle round's",
	      save.p10 <= save.median && save.median <= save.p90 && fabs(save.median - 0.5) < 1e-12);
	/* Two placements of the same calls: cached, a (the loop) wins below
	 * 1000 B; flushed (a_cold), the loop costs three times as much per
	 * byte, and b (rep movsb) wins from 160 B on.  The sum of the two
	 * placements puts the crossover at 300 B, losing flushed in between;
	 * the dearer placement of each size puts it at 160 B. */
	static struct cm_curve a_cold;
	linear(&a_cold, 15, 10.0 / 3);
	struct cm_setting cached = split, cold = { .below = &a_cold, .band = &b, .above_from = CM_NEVER, .floor = -1 };
	struct cm_term placed[2] = { { &cached, &w, 0 }, { &cold, &w, 0 } };
	double *both_placements[2] = { &cached.band_from, &cold.band_from };
	cached.band_from = cold.band_from = CM_NEVER;
	cm_best_threshold(placed, 2, both_placements, 2, candidates, n);
	double summed = cached.band_from;
	cached.band_from = cold.band_from = CM_NEVER;
	cm_best_value(worst_placement, placed, both_placements, 2, candidates, n);
	printf("  flushed a: threshold %.0f on the sum, %.0f on the dearer placement\n", summed, cached.band_from);
	check("on the sum of both placements, about 300 B", summed >= 272 && summed <= 320);
	check("on the dearer placement, about 160 B", cached.band_from >= 144 && cached.band_from <= 176 &&
	      cold.band_from == cached.band_from);
	cached.band_from = cold.band_from = CM_NEVER;
	struct cm_term one_hot = { &cached, &one, 0 }, one_cold = { &cold, &one, 0 };
	check("one bucket of 10 calls of 100 B: the dearer placement's 10 x 45 (x 1.02, the median round)",
	      fabs(cm_worst_placement_sum(&one_hot, &one_cold, 1) - 450 * 1.02) < 1e-6);
	double *flat = &flat_field;
	const double flat_candidates[] = { 4096, 8192 };
	flat_field = 2048, flat_dip = 0.5;
	cm_best_value(flat_objective, NULL, &flat, 1, flat_candidates, 2);
	check("a candidate 0.5% cheaper than the start: the start stays", flat_field == 2048);
	flat_field = 2048, flat_dip = 5;
	cm_best_value(flat_objective, NULL, &flat, 1, flat_candidates, 2);
	check("a candidate 5% cheaper than the start: it is taken", flat_field == 8192);
	return checks_finish();
}
