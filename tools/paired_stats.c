#include "tools/paired_stats.h"

#include <math.h>
#include <stdio.h>

#define Z95 1.959963984540054   /* the normal quantile for a two-sided 95% interval */
#define SIMPSON_STEPS 2000      /* even; the density is smooth: error far below 1e-6 */
#define MOST_ROUNDS 1000000000.0 /* a cap for `needed`, where the spread is huge */

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

bool paired_compare(const double *x, const double *base, unsigned n, struct paired_ratio *out)
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
	double half = paired_t_quantile(0.975, n - 1) * sd / sqrt(n);
	*out = (struct paired_ratio){ .n = n, .ratio = exp(mean), .low = exp(mean - half), .high = exp(mean + half),
				      .log_sd = sd };
	return true;
}

/* The rounds for a 95% half-width of `target` (in logs) at spread sd:
 * from the normal approximation, then corrected for t's heavier tails. */
static unsigned long rounds_for(double sd, double target)
{
	double m = ceil(pow(Z95 * sd / target, 2));
	for (int i = 0; i < 4 && m < MOST_ROUNDS; i++) {
		m = m < 2 ? 2 : m;
		double t = paired_t_quantile(0.975, (unsigned)m - 1);
		if (t * sd / sqrt(m) < target)
			break;
		m = ceil(pow(t * sd / target, 2));
	}
	return (unsigned long)fmin(fmax(m, 2), MOST_ROUNDS);
}

struct paired_verdict paired_judge(const struct paired_ratio *r)
{
	struct paired_verdict v = { .kind = PAIRED_UNRESOLVED };
	if (r->high < 1)
		v.kind = PAIRED_FASTER;
	else if (r->low > 1)
		v.kind = PAIRED_SLOWER;
	else if (r->low >= 1 / (1 + PAIRED_RESOLUTION) && r->high <= 1 + PAIRED_RESOLUTION)
		v.kind = PAIRED_SAME;
	else {
		double observed = fabs(r->ratio - 1);
		v.resolve = observed > PAIRED_RESOLUTION ? observed : PAIRED_RESOLUTION;
		v.needed = rounds_for(r->log_sd, log(1 + v.resolve));
		if (v.needed <= r->n) /* the spread shrank below what n rounds showed: at least one more */
			v.needed = r->n + 1;
	}
	return v;
}

void paired_verdict_text(const struct paired_ratio *r, const struct paired_verdict *v, char *out, size_t size)
{
	switch (v->kind) {
	case PAIRED_FASTER:
		snprintf(out, size, "faster");
		break;
	case PAIRED_SLOWER:
		snprintf(out, size, "slower");
		break;
	case PAIRED_SAME:
		snprintf(out, size, "no difference beyond +-%.0f%%", 100 * PAIRED_RESOLUTION);
		break;
	case PAIRED_UNRESOLVED:
		snprintf(out, size, "no difference resolvable with %u runs; about %lu runs would resolve %.1f%%", r->n,
			 v->needed, 100 * v->resolve);
		break;
	}
}
