/* memshim ab's paired comparison on inputs whose answers are known. */
#include "tools/util/paired_stats.h"

#include "tests/unit_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


/* The verdict's words for x against base. */
static const char *verdict_of(const double *x, const double *base, unsigned n, struct paired_ratio *r)
{
	static char text[160];
	if (!paired_compare(x, base, n, PAIRED_LEVEL, r))
		return "(no comparison)";
	struct paired_verdict v = paired_judge(r);
	paired_verdict_text(r, &v, text, sizeof text);
	printf("  ratio %.4f (%.4f..%.4f): %s\n", r->ratio, r->low, r->high, text);
	return text;
}

static void t_quantiles(void)
{
	/* Student's t, 97.5% point, from any table */
	static const struct {
		unsigned df;
		double t;
	} table[] = { { 1, 12.706 }, { 2, 4.303 }, { 4, 2.776 }, { 9, 2.262 }, { 29, 2.045 }, { 1000, 1.962 } };
	for (unsigned i = 0; i < sizeof table / sizeof table[0]; i++) {
		char what[64];
		snprintf(what, sizeof what, "t(0.975, %u) = %.3f", table[i].df, table[i].t);
		check(what, fabs(paired_t_quantile(0.975, table[i].df) - table[i].t) < 0.001);
	}
}

int main(void)
{
	struct paired_ratio r;
	t_quantiles();

	double base[8] = { 1.00, 1.10, 0.95, 1.30, 1.02, 0.98, 1.20, 1.05 }; /* a noisy machine */
	check("identical samples: verdict", strcmp(verdict_of(base, base, 8, &r), "no difference beyond +-1%") == 0);
	check("identical samples: ratio 1, zero width", r.ratio == 1 && r.low == 1 && r.high == 1 && r.log_sd == 0);

	/* Twice as slow, with the round's noise shared and 2% of its own. */
	double twice[8], half[8];
	for (unsigned i = 0; i < 8; i++) {
		twice[i] = 2 * base[i] * (i % 2 ? 1.02 : 0.98);
		half[i] = base[i] / twice[i] * base[i];
	}
	check("2x: slower", strcmp(verdict_of(twice, base, 8, &r), "slower") == 0);
	check("2x: ratio about 2", fabs(r.ratio - 2) < 0.02 && r.low > 1.9 && r.high < 2.1);
	check("0.5x: faster", strcmp(verdict_of(half, base, 8, &r), "faster") == 0);

	/* Ratios 1.05, 0.95, 1.05, 0.95: a spread of 5.77% in logs around a
	 * mean of -0.125%; the t interval with 3 df is +-9.2%, far over 1. */
	double noise[4] = { 1.05, 0.95, 1.05, 0.95 }, ones[4] = { 1, 1, 1, 1 };
	const char *text = verdict_of(noise, ones, 4, &r);
	check("overlapping noise: unresolved with 4 runs",
	      strncmp(text, "no difference resolvable with 4 runs; about ", 44) == 0);
	/* at a 1% half-width: (1.96 x 0.0577 / 0.00995)^2 = 129, a little more for t */
	unsigned long m = 0;
	check("overlapping noise: about 130 runs would resolve 1%",
	      sscanf(text, "no difference resolvable with 4 runs; about %lu runs would resolve 1.0%%", &m) == 1 &&
		      m >= 129 && m <= 135);
	printf("  (M = %lu)\n", m);

	/* A clear 10% slowdown in noise that hides it with 3 rounds */
	double slow3[3] = { 1.25, 0.98, 1.10 }, one3[3] = { 1, 1, 1 };
	text = verdict_of(slow3, one3, 3, &r);
	check("a hidden 10%: asks to resolve the observed difference", strstr(text, "would resolve 10.") != NULL);

	struct paired_ratio strict;
	paired_compare(noise, ones, 4, PAIRED_LEVEL, &r);
	paired_compare(noise, ones, 4, 0.99, &strict);
	check("a 99% interval is wider than a 95% one", strict.low < r.low && strict.high > r.high);
	struct paired_verdict v = paired_judge(&strict);
	printf("  99%%: M = %lu\n", v.needed);
	/* (2.576 x 0.0577 / 0.00995)^2 = 224, a little more for t: the search
	 * must not jump past it from t's huge values at 2 or 3 rounds */
	check("at 99%: about 225 runs would resolve 1%", v.needed >= 224 && v.needed <= 230);
	check("the normal quantile", fabs(paired_t_quantile(0.975, 100000000) - 1.95996) < 1e-4);

	check("one run: no comparison", !paired_compare(base, base, 1, PAIRED_LEVEL, &r));
	double zero[2] = { 0, 1 };
	check("a zero time: no comparison", !paired_compare(zero, base, 2, PAIRED_LEVEL, &r));
	return checks_finish();
}
