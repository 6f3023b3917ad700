/* memshim ab's paired comparison on inputs whose answers are known. */
#include "tools/util/paired_stats.h"

#include "tests/unit_check.h"

#include <math.h>
#include <stdint.h>
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

/* xorshift64 (Marsaglia): the same draws on every machine. */
static uint64_t draw_state = 88172645463325252u;

static double uniform(void)
{
	draw_state ^= draw_state << 13;
	draw_state ^= draw_state >> 7;
	draw_state ^= draw_state << 17;
	return ((double)(draw_state >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* A heavy-tailed, symmetric log ratio: the difference of two runs' own
 * skewed noise (exponential), as when one run in a few lands badly. */
static double laplace(void)
{
	return log(uniform()) - log(uniform());
}

/* The every-round looks' critical |t| by round: the t quantile of their level. */
static double critical[PAIRED_AUTO_EVERY_UNTIL + 1];

/* The share of `paths` simulated series of per-round log ratios
 * (shift + spread * noise()) that a look of --runs auto, from the first to
 * round `last` (at most PAIRED_AUTO_EVERY_UNTIL), calls different. */
static double auto_crossings(double (*noise)(void), double shift, double spread, unsigned last, unsigned paths)
{
	unsigned crossed = 0;
	for (unsigned p = 0; p < paths; p++) {
		double sum = 0, squares = 0;
		for (unsigned n = 1; n <= last; n++) {
			double x = shift + spread * noise();
			sum += x;
			squares += x * x;
			if (n < PAIRED_AUTO_FIRST)
				continue;
			double mean = sum / n, variance = (squares - sum * mean) / (n - 1);
			if (fabs(mean) > critical[n] * sqrt(variance / n)) {
				crossed++;
				break;
			}
		}
	}
	return (double)crossed / paths;
}

/* --runs auto's stop rule: its looks, that the critical |t| the simulation
 * takes is paired_compare's, and the error it keeps over all its looks. */
static void auto_stop_rule(void)
{
	check("first look after 3 rounds", paired_auto_next_look(0) == 3 && paired_auto_next_look(2) == 3);
	check("then after every round to 20", paired_auto_next_look(3) == 4 && paired_auto_next_look(19) == 20);
	check("then each time grown by half", paired_auto_next_look(20) == 30 && paired_auto_next_look(30) == 45 &&
						     paired_auto_next_look(25) == 30);
	check("the last look is 1000", paired_auto_next_look(778) == 1000 && paired_auto_next_look(1000) == 1001);

	for (unsigned n = PAIRED_AUTO_FIRST; n <= PAIRED_AUTO_EVERY_UNTIL; n++)
		critical[n] = paired_t_quantile(1 - (1 - paired_auto_level(n)) / 2, n - 1);
	unsigned agree = 0, tries = 200;
	for (unsigned i = 0; i < tries; i++) {
		unsigned n = PAIRED_AUTO_FIRST + i % (PAIRED_AUTO_EVERY_UNTIL - PAIRED_AUTO_FIRST + 1);
		double x[PAIRED_AUTO_EVERY_UNTIL], ones[PAIRED_AUTO_EVERY_UNTIL], sum = 0, squares = 0;
		for (unsigned k = 0; k < n; k++) {
			double d = 0.03 + 0.05 * normal();
			x[k] = exp(d);
			ones[k] = 1;
			sum += d;
			squares += d * d;
		}
		double mean = sum / n, sd = sqrt((squares - sum * mean) / (n - 1));
		struct paired_ratio r;
		paired_compare(x, ones, n, paired_auto_level(n), &r);
		agree += (fabs(mean) > critical[n] * sd / sqrt(n)) == (r.low > 1 || r.high < 1);
	}
	check("the simulation's test is paired_compare's", agree == tries);

	/* The every-round looks spend 4%: 3.88% in 400,000 paths; 20,000 here
	 * give it within +-0.3% (2 standard errors) */
	double early = auto_crossings(normal, 0, 1, PAIRED_AUTO_EVERY_UNTIL, 20000);
	printf("  no difference, normal: %.2f%% called different by round %d\n", 100 * early, PAIRED_AUTO_EVERY_UNTIL);
	check("no difference, normal noise: at most 4% called different by round 20", early < 0.043);
	double heavy = auto_crossings(laplace, 0, 1, PAIRED_AUTO_EVERY_UNTIL, 20000);
	printf("  no difference, heavy-tailed: %.2f%%\n", 100 * heavy);
	check("no difference, heavy-tailed noise: at most 4% too", heavy < 0.043);

	double late = 0;
	for (unsigned n = paired_auto_next_look(PAIRED_AUTO_EVERY_UNTIL); n <= PAIRED_AUTO_LAST; n = paired_auto_next_look(n))
		late += 1 - paired_auto_level(n);
	check("the later looks share 1%", fabs(late - 0.01) < 1e-9);
	check("in all at most 5%", early + late < 0.05 && heavy + late < 0.05);

	/* What the every-round looks buy: a 9% difference at a spread of 8.5%
	 * a round (sqlite3's timed calls on a Xeon, D38)
	 * is called within 15 rounds in most tries: 79% in 20,000 paths, where
	 * looks at 3, 5, 8 and 12 only, at the 99.67% that keeps 5% over such
	 * looks to 1000, called it in 50% */
	double found = auto_crossings(normal, log(1.09), 0.085, 15, 10000);
	printf("  9%% at 8.5%% spread: %.1f%% called within 15 rounds\n", 100 * found);
	check("a 9% difference at 8.5% spread: called within 15 rounds in 3 tries of 4", found > 0.75);
}

/* One rule for every interval ab prints, on the figures a gzip -d run
 * gave (issue 63): its overall 1.009 (1.006-1.013) and its one size class
 * 1.010 (1.005-1.014) read alike, slower; an interval within 1% reads the
 * same though it lie on one side of 1; and the order of the rule. */
static void one_rule(void)
{
	check("gzip -d overall 1.006-1.013: slower",
	      strcmp(paired_verdict_words(paired_verdict_of(1.006, 1.013)), "slower") == 0);
	check("gzip -d's size class 1.005-1.014: slower too",
	      strcmp(paired_verdict_words(paired_verdict_of(1.005, 1.014)), "slower") == 0);
	check("1.002-1.008, above 1 but within 1%: same within 1%", paired_verdict_of(1.002, 1.008) == PAIRED_SAME);
	check("0.767-0.988: faster", paired_verdict_of(0.767, 0.988) == PAIRED_FASTER);
	check("0.979-1.020: not resolved", paired_verdict_of(0.979, 1.020) == PAIRED_UNRESOLVED);
	struct paired_ratio r = { .n = 20, .level = PAIRED_LEVEL, .ratio = 1.009, .low = 1.006, .high = 1.013 };
	struct paired_verdict v = paired_judge(&r);
	char text[160];
	paired_verdict_text(&r, &v, text, sizeof text);
	check("the rounds' verdict on the same interval: the same word", strcmp(text, "slower") == 0);
	/* --runs auto's plan: 3 rounds in 3 s, a budget of 23 s: 23 rounds fit,
	 * but the looks after 20 are at 30, 45, ...: it stops at 20, and says 20 */
	check("the plan names the last look the budget holds: 20, not 23", paired_auto_last_look(3, 3, 23, 1000) == 20);
	check("... where the stop rule stops: 30 would overrun it", paired_auto_overruns(30, 3, 3, 23) &&
	      !paired_auto_overruns(20, 3, 3, 23));
	check("a budget of 45 rounds: 45", paired_auto_last_look(3, 3, 45.5, 1000) == 45);
	check("one that holds no more: the rounds done", paired_auto_last_look(3, 3, 3.5, 1000) == 3);
}

int main(void)
{
	struct paired_ratio r;
	t_quantiles();
	one_rule();

	double base[8] = { 1.00, 1.10, 0.95, 1.30, 1.02, 0.98, 1.20, 1.05 }; /* a noisy machine */
	check("identical samples: verdict", strcmp(verdict_of(base, base, 8, &r), "same within 1%") == 0);
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
	      strncmp(text, "not resolved with 4 runs; about ", 32) == 0);
	/* at a 1% half-width: (1.96 x 0.0577 / 0.00995)^2 = 129, a little more for t */
	unsigned long m = 0;
	check("overlapping noise: about 130 runs would resolve 1%",
	      sscanf(text, "not resolved with 4 runs; about %lu runs would resolve 1.0%%", &m) == 1 &&
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
	auto_stop_rule();
	return checks_finish();
}
