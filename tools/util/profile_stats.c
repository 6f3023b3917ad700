#include "tools/util/profile_stats.h"

#include <math.h>

#define Z95 1.959963984540054 /* the normal quantile for a two-sided 95% interval */

double profile_sample_space(const struct dump_profile *p)
{
	if (!p->samples || !p->sampled_ns)
		return 0;
	double ns_per_sample = (double)p->sampled_ns / (double)p->samples;
	double n = (double)p->process_cpu_ns / ns_per_sample;
	return n > (double)p->samples ? n : (double)p->samples;
}

double profile_rate_taken(const struct dump_profile *p)
{
	return p->sampled_ns ? (double)p->samples * 1e9 / (double)p->sampled_ns : 0;
}

void profile_interval(double k, double n, double *low, double *high)
{
	double p = k / n, z2 = Z95 * Z95;
	double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
	double half = Z95 * sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
	*low = fmax(0, centre - half);
	*high = fmin(1, centre + half);
}

bool profile_share(const struct dump_profile *p, uint64_t samples, uint64_t ns, struct cpu_share *out)
{
	double n = profile_sample_space(p);
	if (!p->processes || n <= 0 || !p->process_cpu_ns)
		return false;
	out->share = fmin(1, (double)ns / (double)p->process_cpu_ns);
	profile_interval((double)samples, n, &out->low, &out->high);
	/* A sample weighs its timer's periods, overruns included, so the time
	 * share and the sample share differ where this one's samples weigh
	 * more or less than the average: the interval, which counts samples,
	 * is scaled by that weight, so that it is the time share's and holds
	 * it (clamped to it, the estimate had sat on the interval's edge). */
	if (samples) {
		double weight = out->share / ((double)samples / n);
		out->low *= weight;
		out->high = fmin(1, out->high * weight);
	}
	out->ns = (double)ns;
	out->samples = samples;
	out->low_ns = out->low * (double)p->process_cpu_ns;
	out->high_ns = out->high * (double)p->process_cpu_ns;
	return true;
}

bool profile_fn_share(const struct dump_profile *p, enum base_function fn, struct cpu_share *out)
{
	return profile_share(p, p->fn_samples[fn], p->fn_ns[fn], out);
}
