#include "tools/util/paired_stats.h"

#include <math.h>
#include <stdio.h>

#define NORMAL_DF 100000000u    /* t with this many degrees of freedom: the normal */
#define SIMPSON_STEPS 2000      /* even; the density is smooth: error far below 1e-6 */
#define MOST_ROUNDS 1000000000.0 /* a cap for `needed`, where the spread is huge */

/* The level of each every-round look: the one at which series of rounds
 * with no difference cross it somewhere in rounds 3..20 a little under 4%
 * of the time, by simulation (D38; the test repeats it). */
#define AUTO_EARLY_LEVEL 0.9942
#define AUTO_LATE_SHARE 0.01 /* the error the later looks share */
#define AUTO_GROWTH 1.5      /* the later looks: each time the rounds have grown by half */

unsigned paired_auto_next_look(unsigned rounds)
{
	if (rounds < PAIRED_AUTO_FIRST)
		return PAIRED_AUTO_FIRST;
	if (rounds < PAIRED_AUTO_EVERY_UNTIL)
		return rounds + 1;
	unsigned look = PAIRED_AUTO_EVERY_UNTIL;
	while (look <= rounds && look <= PAIRED_AUTO_LAST)
		look = look == PAIRED_AUTO_LAST ? look + 1 : (unsigned)fmin(ceil(look * AUTO_GROWTH), PAIRED_AUTO_LAST);
	return look;
}

bool paired_auto_overruns(unsigned rounds, unsigned done, double elapsed, double budget)
{
	return elapsed * rounds / done > budget;
}

unsigned paired_auto_last_look(unsigned done, double elapsed, double budget, unsigned most)
{
	unsigned look = done;
	for (unsigned next = paired_auto_next_look(look); next <= most && !paired_auto_overruns(next, done, elapsed, budget);
	     next = paired_auto_next_look(look))
		look = next;
	return look;
}

double paired_auto_level(unsigned rounds)
{
	if (rounds <= PAIRED_AUTO_EVERY_UNTIL)
		return AUTO_EARLY_LEVEL;
	unsigned later = 0;
	for (unsigned look = paired_auto_next_look(PAIRED_AUTO_EVERY_UNTIL); look <= PAIRED_AUTO_LAST;
	     look = paired_auto_next_look(look))
		later++;
	return 1 - AUTO_LATE_SHARE / later;
}

/* Student's t density with df degrees of freedom, without its constant. */
static double t_shape(double t, double df)
{
	return pow(1 + t * t / df, -(df + 1) / 2);
}

/* P(0 < T < t), by Simpson's rule on the density. */
static double t_mass(double t, double df)
{
	double h = t / SIMPSON_STEPS, sum = t_shape(0, df) + t_shape(t, df);
	for (unsigned i = 1; i < SIMPSON_STEPS; i++)
		sum += (i % 2 ? 4 : 2) * t_shape(i * h, df);
	double constant = exp(lgamma((df + 1) / 2) - lgamma(df / 2)) / sqrt(df * M_PI);
	return constant * sum * h / 3;
}

double paired_t_quantile(double p, unsigned df)
{
	double lo = 0, hi = 1;
	while (t_mass(hi, df) < p - 0.5 && hi < 1e6)
		hi *= 2;
	for (int i = 0; i < 60; i++) {
		double mid = (lo + hi) / 2;
		if (t_mass(mid, df) < p - 0.5)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* The two-sided quantile of a `level` interval: t(1 - (1 - level) / 2). */
static double two_sided(double level, unsigned df)
{
	return paired_t_quantile(1 - (1 - level) / 2, df);
}

bool paired_compare(const double *x, const double *base, unsigned n, double level, struct paired_ratio *out)
{
	if (n < 2)
		return false;
	double sum = 0, squares = 0;
	for (unsigned i = 0; i < n; i++) {
		if (!(x[i] > 0) || !(base[i] > 0))
			return false;
		sum += log(x[i] / base[i]);
	}
	double mean = sum / n;
	for (unsigned i = 0; i < n; i++) {
		double d = log(x[i] / base[i]) - mean;
		squares += d * d;
	}
	double sd = sqrt(squares / (n - 1));
	double half = two_sided(level, n - 1) * sd / sqrt(n);
	*out = (struct paired_ratio){ .n = n, .level = level, .ratio = exp(mean), .low = exp(mean - half),
				      .high = exp(mean + half), .log_sd = sd };
	return true;
}

static bool narrow_enough(double m, double sd, double target, double level)
{
	return two_sided(level, (unsigned)m - 1) * sd / sqrt(m) < target;
}

/* The fewest rounds (at least 2) whose interval at spread sd and this level
 * is narrower than `target` (in logs): the half-width shrinks as m grows,
 * so from the normal approximation, doubling then halving the gap. */
static unsigned long rounds_for(double sd, double target, double level)
{
	double lo = 1, hi = fmax(2, ceil(pow(two_sided(level, NORMAL_DF) * sd / target, 2)));
	while (hi < MOST_ROUNDS && !narrow_enough(hi, sd, target, level)) {
		lo = hi;
		hi = fmin(2 * hi, MOST_ROUNDS);
	}
	while (hi - lo > 1) { /* lo fails (or is 1), hi passes */
		double mid = floor((lo + hi) / 2);
		if (narrow_enough(mid, sd, target, level))
			hi = mid;
		else
			lo = mid;
	}
	return (unsigned long)hi;
}

double paired_resolvable(const struct paired_ratio *r, unsigned rounds, double level)
{
	if (rounds < 2)
		return INFINITY;
	return exp(two_sided(level, rounds - 1) * r->log_sd / sqrt((double)rounds)) - 1;
}

enum paired_verdict_kind paired_verdict_of(double low, double high)
{
	if (low >= 1 / (1 + PAIRED_RESOLUTION) && high <= 1 + PAIRED_RESOLUTION)
		return PAIRED_SAME;
	if (high < 1)
		return PAIRED_FASTER;
	return low > 1 ? PAIRED_SLOWER : PAIRED_UNRESOLVED;
}

const char *paired_verdict_words(enum paired_verdict_kind kind)
{
	/* "1%": PAIRED_RESOLUTION */
	static const char *const words[] = { [PAIRED_SAME] = "same within 1%", [PAIRED_FASTER] = "faster",
					     [PAIRED_SLOWER] = "slower", [PAIRED_UNRESOLVED] = "not resolved" };
	return words[kind];
}

struct paired_verdict paired_judge(const struct paired_ratio *r)
{
	struct paired_verdict v = { .kind = paired_verdict_of(r->low, r->high) };
	if (v.kind == PAIRED_UNRESOLVED) {
		double observed = fabs(r->ratio - 1);
		v.resolve = observed > PAIRED_RESOLUTION ? observed : PAIRED_RESOLUTION;
		v.needed = rounds_for(r->log_sd, log(1 + v.resolve), r->level);
		if (v.needed <= r->n) /* the spread shrank below what n rounds showed: at least one more */
			v.needed = r->n + 1;
	}
	return v;
}

void paired_verdict_text(const struct paired_ratio *r, const struct paired_verdict *v, char *out, size_t size)
{
	if (v->kind == PAIRED_UNRESOLVED)
		snprintf(out, size, "%s with %u runs; about %lu runs would resolve %.1f%%", paired_verdict_words(v->kind),
			 r->n, v->needed, 100 * v->resolve);
	else
		snprintf(out, size, "%s", paired_verdict_words(v->kind));
}
