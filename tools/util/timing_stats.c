#include "tools/util/timing_stats.h"

#include "tools/util/paired_stats.h"
#include "tools/util/profile_stats.h"
#include "tools/util/units_shares.h"

#include <math.h>

#define Z95 1.959963984540054 /* the normal quantile for a two-sided 95% interval */
#define T_TABLE 1000          /* degrees of freedom from which t is taken as normal */

/* Student's t quantile for a two-sided 95% interval, computed once per df. */
static double t95(double df)
{
	static double known[T_TABLE];
	if (df >= T_TABLE)
		return Z95;
	unsigned k = (unsigned)df;
	if (!known[k])
		known[k] = paired_t_quantile(0.975, k);
	return known[k];
}

struct sums {
	double calls, ns, squares, dropped;
};

static struct sums sum_range(const struct dump_timing *t, enum base_function fn, uint64_t lo, uint64_t hi)
{
	struct sums s = { 0, 0, 0, 0 };
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		if (hist_bucket_lo(b) >= lo && hist_bucket_lo(b) < hi) {
			s.calls += (double)t->calls[fn][b];
			s.ns += (double)t->ns[fn][b];
			s.squares += (double)t->squares[fn][b];
			s.dropped += (double)t->dropped[fn][b];
		}
	return s;
}

bool timing_range(const struct dump_timing *t, enum base_function fn, uint64_t lo, uint64_t hi, struct timed_ns *out)
{
	struct sums s = sum_range(t, fn, lo, hi);
	if (!t->processes || !s.calls)
		return false;
	double mean = s.ns / s.calls;
	double variance = s.calls > 1 ? fmax(0, (s.squares - s.ns * mean) / (s.calls - 1)) : 0;
	double half = s.calls > 1 ? t95(s.calls - 1) * sqrt(variance / s.calls) : 0;
	*out = (struct timed_ns){ .calls = s.calls, .dropped = s.dropped, .mean = mean, .low = fmax(0, mean - half),
	                          .high = mean + half };
	return true;
}

bool timing_fn(const struct dump_timing *t, enum base_function fn, struct timed_ns *out)
{
	return timing_range(t, fn, 0, UINT64_MAX, out);
}

/* The total of timing_total_ns with each class's mean (which 0), or the
 * low (1) or high (2) end of its interval. */
static double total_at(const struct dump *d, enum base_function fn, uint64_t lo, uint64_t hi, int which)
{
	struct timed_ns all, c;
	if (!timing_fn(&d->timing, fn, &all))
		return 0;
	double total = 0;
	for (unsigned k = 0; k < size_class_count; k++) {
		uint64_t from = size_classes[k].lo > lo ? size_classes[k].lo : lo;
		uint64_t to = size_classes[k].hi < hi ? size_classes[k].hi : hi;
		if (from >= to)
			continue;
		double calls = 0;
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			if (hist_bucket_lo(b) >= from && hist_bucket_lo(b) < to)
				calls += (double)d->hist.fn[fn].calls[b];
		const struct timed_ns *per = timing_range(&d->timing, fn, from, to, &c) ? &c : &all;
		total += calls * (which == 0 ? per->mean : which == 1 ? per->low : per->high);
	}
	return total;
}

double timing_total_ns(const struct dump *d, enum base_function fn, uint64_t lo, uint64_t hi)
{
	return total_at(d, fn, lo, hi, 0);
}

void timing_total_interval(const struct dump *d, enum base_function fn, double *low, double *high)
{
	*low = total_at(d, fn, 0, UINT64_MAX, 1);
	*high = total_at(d, fn, 0, UINT64_MAX, 2);
}

double timing_per_call(const struct dump *d, uint64_t lo, uint64_t hi)
{
	double calls = 0, timed = 0, timed_ns = 0, known_calls = 0, known_ns = 0;
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (unsigned k = 0; k < size_class_count; k++) {
			uint64_t from = size_classes[k].lo > lo ? size_classes[k].lo : lo;
			uint64_t to = size_classes[k].hi < hi ? size_classes[k].hi : hi;
			struct sums s = from < to ? sum_range(&d->timing, (enum base_function)fn, from, to)
			                          : (struct sums){ 0, 0, 0, 0 };
			double stratum_calls = 0;
			for (unsigned b = 0; b < HIST_BUCKETS && from < to; b++)
				if (hist_bucket_lo(b) >= from && hist_bucket_lo(b) < to)
					stratum_calls += (double)d->hist.fn[fn].calls[b];
			calls += stratum_calls;
			timed += s.calls;
			timed_ns += s.ns;
			if (s.calls && stratum_calls) {
				known_calls += stratum_calls;
				known_ns += stratum_calls * s.ns / s.calls;
			}
		}
	if (!timed || !calls)
		return 0;
	return (known_ns + (calls - known_calls) * timed_ns / timed) / calls;
}

double timing_overhead_ns(const struct dump_timing *t)
{
	double calls = 0;
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			calls += (double)t->calls[fn][b];
	return calls ? t->subtracted_ns / calls : (double)t->overhead_ps / 1000;
}

double recorded_ns(const struct dump *d, enum base_function fn)
{
	struct cpu_share c;
	double timed = timing_total_ns(d, fn, 0, UINT64_MAX);
	if (timed > 0)
		return timed;
	return d->profile.processes && profile_fn_share(&d->profile, fn, &c) ? c.ns : 0;
}
