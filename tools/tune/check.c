/* memshim tune checks itself: with a profile in the dumps (MEMSHIM_PROFILE),
 * the model's time for the recorded calls under the variant that ran is set
 * against the CPU time measured inside each function, and savings are
 * given as a share of the program's CPU time; with timed calls
 * (MEMSHIM_TIMING), the model's ns per call is set against the timed ns per
 * call size class by size class, so that where they disagree says which
 * sizes the model gets wrong, and how. */
#include "config.h"

#include "tools/measure/clock.h"
#include "tools/util/alias_hazard.h"
#include "tools/util/paired_stats.h"
#include "tools/util/profile_stats.h"
#include "tools/util/quantile.h"
#include "tools/util/units_shares.h"
#include "tools/util/timing_stats.h"
#include "tools/calibrate/model.h"
#include "tools/tune/tune.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RATE_SPIN_NS 20000000.0 /* how long the cycle rate is measured over: 20 ms */

/* Why a measured time could lie outside the prediction: what the curves of
 * tools/calibrate/calibrate.c assume.  They time each size bucket with sizes
 * drawn at random inside it and random offsets, on buffers that stay in
 * the cache (cold ones only for the largest sizes, from 4 MiB). */
static const char reason_above[] =
	"the data was probably cold: the model assumes buffers in the cache, and a copy from or to\n"
	"    memory not touched lately, or a first touch of new pages (their faults count inside the\n"
	"    function), costs more";
/* Named before cold data where the dumps hold copies at a near 4 KiB-aliasing
 * distance from 2 KiB (tools/util/alias_hazard.h): the curves copy away from
 * it.  Arguments: the lines' indent, the share of bytes, the cold reason. */
static const char reason_hazard_counted[] =
	"4 KiB aliasing: %2$.0f%% of its bytes are copies from 2 KiB with (dst - src) mod 4096 in\n"
	"%1$s1..63, where rep movsb can run several times slower; the prediction counts the CPU\n"
	"%1$srow's figure for them, which may be below what this program pays (memshim report\n"
	"%1$ssays what they cost); or\n%1$s%3$s";
static const char reason_hazard_unmeasured[] =
	"4 KiB aliasing: %2$.0f%% of its bytes are copies from 2 KiB with (dst - src) mod 4096 in\n"
	"%1$s1..63, where rep movsb can run several times slower, which the prediction leaves out:\n"
	"%1$sno CPU row has measured it here (" ALIAS_HAZARD_MEASURE " does); or\n%1$s%3$s";
static const char reason_read_back[] =
	"most of the predicted time is in copies of 512 B or more, whose curves hold a read of the\n"
	"    destination after each copy (so that thresholds weigh what non-temporal stores cost the\n"
	"    reader); that read happens after the function returns, so the time measured inside\n"
	"    does not hold it";
static const char reason_below[] =
	"the sizes were probably predictable: the model's curves are for sizes drawn at random\n"
	"    within each size class, so they price in branch mispredictions a program that repeats\n"
	"    its sizes does not pay; short copies may also overlap with the program's own work";

/* Why a size class's timed ns per call could lie outside the model's: what
 * the curves assume, and what timing a call does to it. */
static const char class_cold[] =
	"the data (or the code) was probably cold: the curves copy buffers that stay in the cache,\n"
	"      and this is more than a timed call's own difference from them";
static const char class_read_back[] =
	"the curves from 512 B hold a read of the destination after each call, which the timed\n"
	"      call does not";
static const char class_predictable[] =
	"the sizes were probably predictable: the curves draw sizes at random in each bucket";
static const char class_alone[] =
	"a timed call runs alone, fenced, and takes its latency, where the curves time a stream of\n"
	"      calls that overlap (doc/decisions.md, D36, has that difference by size class)";

/* The share of fn's bytes in hazard copies, where that is noticeable and
 * the row does not show rep movsb fast there; else 0.  *counted: whether
 * the prediction holds their cost (the row measured it). */
static double hazard_bytes(const struct dump *d, enum base_function fn, bool *counted)
{
	const struct cpu_row *row = alias_hazard_row();
	const char *list = row ? row->alias4k[fn] : NULL;
	const struct function_histogram *f = &d->hist.fn[fn];
	double part = (double)f->alias_near_large_bytes / fmax((double)sum_buckets(f->bytes), 1);
	*counted = list != NULL;
	return part > ALIAS_HAZARD_NOTICEABLE && (!list || alias_hazard_measured(list)) ? part : 0;
}

/* The hazard's ns on w's copies under the variant that ran: w's bytes from
 * 2 KiB hold fn's hazard bytes in proportion (all of them where w is fn's). */
static double hazard_in(const struct dump *d, enum base_function fn, const struct cm_workload *w)
{
	const struct cpu_row *row = alias_hazard_row();
	const struct function_histogram *f = &d->hist.fn[fn];
	double mine = 0, all = (double)sum_buckets_from(f->bytes, HIST_ALIAS_LARGE);
	for (unsigned b = 0; b < w->count; b++)
		if (w->size[b] >= HIST_ALIAS_LARGE)
			mine += w->calls[b] * w->size[b];
	if (!row || !all)
		return 0;
	return alias_hazard_ns(f, row->alias4k[fn], d->variant[fn]) * fmin(mine / all, 1);
}

/* The cycle counter's rate now, in ns per cycle; 0 if there is none. */
static double measure_ns_per_cycle(void)
{
	struct measure_clock clock;
	measure_clock_open(&clock);
	if (clock.perf_fd < 0)
		return 0;
	double start = (double)monotonic_ns(), cycles = (double)measure_clock_now(&clock), now;
	volatile unsigned spin = 0;
	while ((now = (double)monotonic_ns()) - start < RATE_SPIN_NS)
		spin++;
	cycles = (double)measure_clock_now(&clock) - cycles;
	close(clock.perf_fd);
	return cycles > 0 ? (now - start) / cycles : 0;
}

double tune_ns_per_unit(const struct calibration *c)
{
	static double cached = -1;
	if (strcmp(c->unit, "ns") == 0)
		return 1;
	if (cached < 0)
		cached = strcmp(c->unit, "cycles") == 0 ? measure_ns_per_cycle() : 0;
	return cached;
}

static const char *percent(double fraction, char *out, size_t size)
{
	double p = 100 * fraction;
	snprintf(out, size, fabs(p) < 10 ? "%.2g%%" : "%.0f%%", p);
	return out;
}

/* "4300x", "0.0058x", "1.3x" */
static const char *times(double measured, double predicted, char *out, size_t size)
{
	double r = predicted > 0 ? measured / predicted : INFINITY;
	snprintf(out, size, r >= 10 ? "%.0fx" : "%.2gx", r);
	return out;
}

/* What memshim ab can resolve, said under a saving too small for it.  Both
 * A/Bs call a difference under PAIRED_RESOLUTION (1%) of what they time no
 * difference, whatever their runs: the whole-program one of the program's
 * time (tools/util/paired_stats.h), the in-process one of the time per call
 * inside these functions (tools/ab/in_process.c).  That floor, not a
 * budget's, is the basis: tune has run no A/B, so it knows no spread, and
 * more runs narrow an interval but never move the floor.  So a saving under
 * 1% of the program's time is one no whole-program ab confirms, and one
 * under 1% of these functions' time one the in-process A/B cannot either. */
static void print_resolvable(double share, double fraction)
{
	char a[32], b[32];
	if (fabs(share) >= PAIRED_RESOLUTION)
		return;
	printf("    below what memshim ab resolves: it calls a difference under %s of the program's\n"
	       "    time none, however many runs; ", percent(PAIRED_RESOLUTION, a, sizeof a));
	if (fabs(fraction) >= PAIRED_RESOLUTION)
		printf("ab --in-process, which times the calls themselves, resolves\n"
		       "    %s of these functions' time, and this is %s of it\n", a, percent(fabs(fraction), b, sizeof b));
	else
		printf("nor can ab --in-process: this is %s of these functions'\n"
		       "    time, under the %s it resolves\n", percent(fabs(fraction), b, sizeof b), a);
}

void tune_print_share(const struct calibration *c, const struct dump *d, double saving, double fraction)
{
	double scale = tune_ns_per_unit(c), cpu = (double)d->profile.process_cpu_ns;
	char a[32], b[32], z[32];
	if (!d->profile.processes || !cpu)
		printf("    share of the program's CPU time: unknown (the dumps carry no profile)\n");
	else if (!scale)
		printf("    share of the program's CPU time: unknown (costs in %s, and no cycle counter here\n"
		       "    to turn them into time)\n", c->unit);
	else if (!saving)
		printf("    saves nothing of %s of CPU time\n", human_duration(cpu, b, sizeof b));
	else {
		printf("    %s about %s of %s of CPU time (%s)\n", saving > 0 ? "saves" : "costs",
		       human_duration(fabs(saving) * scale, a, sizeof a), human_duration(cpu, b, sizeof b),
		       percent(fabs(saving) * scale / cpu, z, sizeof z));
		print_resolvable(saving * scale / cpu, fraction);
	}
}

/* The thresholds the run had: movsb and stosb as the dump records them, the
 * others (not recorded) as built in. */
static void thresholds_that_ran(const struct dump *d, double t[T_COUNT])
{
	calibrate_builtin_thresholds(t);
	if (d->movsb_threshold)
		t[T_MOVSB] = (double)d->movsb_threshold;
	if (d->stosb_threshold)
		t[T_STOSB] = (double)d->stosb_threshold;
}

/* The model's time for fn's calls under the variant that ran, in ns: the
 * median and p10..p90 over the calibration's rounds.  False if it can't. */
static bool predicted_ns(const struct calibration *c, const struct dump *d, enum base_function fn,
			 const struct cm_workload *w, double out[3])
{
	double t[T_COUNT], rounds[CM_MAX_ROUNDS], scale = tune_ns_per_unit(c), hazard = hazard_in(d, fn, w);
	thresholds_that_ran(d, t);
	for (unsigned r = 0; r < c->rounds; r++) {
		double cost = calibrate_function_cost(c, fn, d->variant[fn], t, w, r);
		rounds[r] = cost < 0 ? cost : cost * scale + hazard;
	}
	/* the median of the same per-round values: inside its own p10..p90 */
	out[0] = quantile(rounds, c->rounds, 0.5);
	out[1] = quantile(rounds, c->rounds, 0.1);
	out[2] = quantile(rounds, c->rounds, 0.9);
	return out[1] >= 0;
}

/* The part of the prediction p0 that falls on sizes whose curves hold the
 * read-back, as a fraction. */
static double read_back_part(const struct calibration *c, const struct dump *d, enum base_function fn,
			     const struct cm_workload *w, double p0)
{
	struct cm_workload large = { 0 };
	for (unsigned b = 0; b < w->count; b++)
		if (w->size[b] >= CALIBRATE_READ_BACK_FROM)
			cm_workload_add(&large, w->calls[b], w->calls[b] * w->size[b]);
	double t[T_COUNT];
	thresholds_that_ran(d, t);
	double part = large.count ? calibrate_function_cost(c, fn, d->variant[fn], t, &large, CM_MEDIAN) : 0;
	return p0 > 0 && part > 0 ? part * tune_ns_per_unit(c) / p0 : 0;
}

/* Above the model: the hazard first where fn has it, then cold data (the
 * lines after the first indented by indent). */
static const char *reason_high(const struct dump *d, enum base_function fn, const char *cold, const char *indent,
			       char *out, size_t size)
{
	bool counted;
	double part = hazard_bytes(d, fn, &counted);
	if (!part)
		return cold;
	snprintf(out, size, counted ? reason_hazard_counted : reason_hazard_unmeasured, indent, 100 * part, cold);
	return out;
}

static const char *reason(const struct calibration *c, const struct dump *d, enum base_function fn,
			  const struct cm_workload *w, bool above, double p0, char *out, size_t size)
{
	if (above)
		return reason_high(d, fn, reason_above, "    ", out, size);
	return read_back_part(c, d, fn, w, p0) > 0.5 ? reason_read_back : reason_below;
}

static void check_function(const struct calibration *c, const struct dump *d, enum base_function fn,
			   const struct cm_workload *w)
{
	const char *name = base_function_names[fn];
	struct cpu_share m;
	double p[3];
	char t1[32], t2[32], t3[32], t4[32], t5[32], t6[32], why[1000];
	if (!profile_fn_share(&d->profile, fn, &m)) {
		printf("  %s: no measurement: the profile holds no samples\n", name);
		return;
	}
	if (!predicted_ns(c, d, fn, w, p)) {
		printf("  %s (%s): no prediction: the calibration has no curve for it\n", name, d->variant[fn]);
		return;
	}
	printf("  %s (%s): predicted %s (p10..p90 %s .. %s); measured %s (95%%: %s .. %s, %llu sample%s)\n", name,
	       d->variant[fn], human_duration(p[0], t1, sizeof t1), human_duration(p[1], t2, sizeof t2),
	       human_duration(p[2], t3, sizeof t3), human_duration(m.ns, t4, sizeof t4), human_duration(m.low_ns, t5, sizeof t5),
	       human_duration(m.high_ns, t6, sizeof t6), (unsigned long long)m.samples, m.samples == 1 ? "" : "s");
	if (d->profile.recording_apart)
		printf("    (measured: the copies alone; memshim's recording of the calls took %s more)\n",
		       human_duration((double)d->profile.recording_ns[fn], t1, sizeof t1));
	else
		printf("    (measured: with memshim's recording of each call: an older memshim wrote the dumps)\n");
	if (m.low_ns > p[2] || m.high_ns < p[1])
		printf("    they disagree: measured is %s the prediction, beyond both ranges:\n    %s\n",
		       times(m.ns, p[0], t1, sizeof t1), reason(c, d, fn, w, m.low_ns > p[2], p[0], why, sizeof why));
	else
		printf("    they agree within the ranges\n");
}

/* How far above a stream of calls a timed call may take, by its latency
 * alone: at most this many ns plus this share, which cover what D36
 * measured at every size. */
#define ALONE_NS 2.0
#define ALONE_SHARE 0.4

/* The likely reason a class's timed ns per call is above (or below) the
 * model's: from 2 KiB, the hazard before cold data where fn has it. */
static const char *class_reason(const struct dump *d, enum base_function fn, const struct size_class *k, double timed,
				double model, char *out, size_t size)
{
	if (timed > model && timed - model <= ALONE_NS + ALONE_SHARE * model)
		return class_alone;
	if (timed > model)
		return k->hi > HIST_ALIAS_LARGE ? reason_high(d, fn, class_cold, "      ", out, size) : class_cold;
	return k->lo >= CALIBRATE_READ_BACK_FROM ? class_read_back : class_predictable;
}

/* The model's ns per call for fn's calls on sizes [lo, hi) under the
 * variant that ran: median and p10..p90 over the rounds; false if none. */
static bool predicted_per_call(const struct calibration *c, const struct dump *d, enum base_function fn,
			       uint64_t lo, uint64_t hi, double out[3])
{
	static struct cm_workload w;
	double calls = 0;
	w.count = 0;
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		if (hist_bucket_lo(b) >= lo && hist_bucket_lo(b) < hi && d->hist.fn[fn].calls[b]) {
			cm_workload_add(&w, (double)d->hist.fn[fn].calls[b], (double)d->hist.fn[fn].bytes[b]);
			calls += (double)d->hist.fn[fn].calls[b];
		}
	if (!calls || !predicted_ns(c, d, fn, &w, out))
		return false;
	for (int i = 0; i < 3; i++)
		out[i] /= calls;
	return true;
}

/* "2.03", "45.1", "4903" */
static const char *ns_figure(double ns, char *out, size_t size)
{
	snprintf(out, size, ns < 10 ? "%.2f" : ns < 100 ? "%.1f" : "%.0f", ns);
	return out;
}

/* One size class of fn: the model's ns per call against the timed; true
 * if they disagree beyond the model's p10..p90 and the timed 95%. */
static bool check_class(const struct calibration *c, const struct dump *d, enum base_function fn,
			const struct size_class *k, double share)
{
	struct timed_ns m;
	double p[3];
	char t[6][24], model[80], timed[80], why[1000];
	if (!timing_range(&d->timing, fn, k->lo, k->hi, &m) || !predicted_per_call(c, d, fn, k->lo, k->hi, p))
		return false;
	snprintf(model, sizeof model, "%s (%s..%s)", ns_figure(p[0], t[0], 24), ns_figure(p[1], t[1], 24),
		 ns_figure(p[2], t[2], 24));
	snprintf(timed, sizeof timed, "%s (%s..%s)", ns_figure(m.mean, t[3], 24), ns_figure(m.low, t[4], 24),
		 ns_figure(m.high, t[5], 24));
	bool above = m.low > p[2], below = m.high < p[1];
	printf("    %-13s %6.1f%%  %-24s %-24s %8.0f  ", k->name, 100 * share, model, timed, m.calls);
	if (above || below)
		printf("%s the model\n      %s\n", times(m.mean, p[0], t[0], 24),
		       class_reason(d, fn, k, m.mean, p[0], why, sizeof why));
	else
		printf("agree\n");
	return above || below;
}

/* fn's size classes with timed calls, one line each, and which disagree. */
static void check_classes(const struct calibration *c, const struct dump *d, enum base_function fn)
{
	double calls = 0;
	char names[200] = "";
	size_t len = 0;
	struct timed_ns all;
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		calls += (double)d->hist.fn[fn].calls[b];
	if (!timing_fn(&d->timing, fn, &all)) {
		printf("  %s (%s): no timed call among its %.0f (one in %llu is timed)\n", base_function_names[fn],
		       d->variant[fn], calls, (unsigned long long)d->timing.every);
		return;
	}
	printf("  %s (%s), size class by size class: the model's ns per call against the timed ns per call\n"
	       "    size class     calls   model (p10..p90)         timed (95%%)              timed    timed / model\n",
	       base_function_names[fn], d->variant[fn]);
	for (unsigned k = 0; k < size_class_count; k++) {
		double class_calls = 0;
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			if (hist_bucket_lo(b) >= size_classes[k].lo && hist_bucket_lo(b) < size_classes[k].hi)
				class_calls += (double)d->hist.fn[fn].calls[b];
		if (class_calls && check_class(c, d, fn, &size_classes[k], class_calls / calls) && len < sizeof names)
			len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "", size_classes[k].name);
	}
	if (len)
		printf("    the model is off in: %s\n", names);
	else
		printf("    the model agrees in every size class with timed calls\n");
}

/* How far the model may be off, either way, in the time that matters
 * before its pick is no suggestion (a model several times off once still made one). */
#define REFUTED_RATIO 2.0

static bool far_off(double measured, double model)
{
	return model > 0 && (measured > REFUTED_RATIO * model || measured * REFUTED_RATIO < model);
}

/* The profile's time inside fn off the model's by more than REFUTED_RATIO,
 * beyond both ranges: the whole function's time, so all that carries it. */
static bool profile_refutes(const struct calibration *c, const struct dump *d, enum base_function fn,
			    const struct cm_workload *w, char *why, size_t size)
{
	struct cpu_share m;
	double p[3];
	char ratio[24];
	if (!d->profile.processes || !profile_fn_share(&d->profile, fn, &m) || !predicted_ns(c, d, fn, w, p))
		return false;
	if (!(m.low_ns > p[2] || m.high_ns < p[1]) || !far_off(m.ns, p[0]))
		return false;
	snprintf(why, size, "%s: the profile measured %s the model's time inside it", base_function_names[fn],
		 times(m.ns, p[0], ratio, sizeof ratio));
	return true;
}

/* The timed calls of fn off the model by more than REFUTED_RATIO, beyond
 * both ranges, in size classes that hold more than half of fn's timed time
 * (each class's calls times its timed ns per call). */
static bool timing_refutes(const struct calibration *c, const struct dump *d, enum base_function fn, char *why,
			   size_t size)
{
	double total = 0, off = 0;
	for (unsigned k = 0; d->timing.processes && k < size_class_count; k++) {
		struct timed_ns m;
		double p[3], calls = 0;
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			if (hist_bucket_lo(b) >= size_classes[k].lo && hist_bucket_lo(b) < size_classes[k].hi)
				calls += (double)d->hist.fn[fn].calls[b];
		if (!calls || !timing_range(&d->timing, fn, size_classes[k].lo, size_classes[k].hi, &m) ||
		    !predicted_per_call(c, d, fn, size_classes[k].lo, size_classes[k].hi, p))
			continue;
		total += calls * m.mean;
		if ((m.low > p[2] || m.high < p[1]) && far_off(m.mean, p[0]))
			off += calls * m.mean;
	}
	if (!(total > 0 && off > total / 2))
		return false;
	snprintf(why, size, "%s: its timed calls are more than %.0fx off the model in size classes holding %.0f%% of "
		 "its timed time", base_function_names[fn], REFUTED_RATIO, 100 * off / total);
	return true;
}

bool tune_check_refutes(const struct calibration *c, const struct dump *d, const struct cm_workload w[FN_COUNT],
			char *why, size_t size)
{
	if (!tune_ns_per_unit(c))
		return false;
	double all = 0;
	for (int fn = 0; fn < FN_COUNT; fn++)
		all += recorded_ns(d, (enum base_function)fn);
	for (int fn = 0; fn < FN_COUNT; fn++) {
		if (!w[fn].count || strcmp(d->variant[fn], "mixed") == 0 || !d->variant[fn][0])
			continue;
		/* where the time is: a function with a tenth of the three's time or
		 * less refutes nothing (memset's 2 ms from one sample beside
		 * memcpy's 220 ms) */
		if (all > 0 && recorded_ns(d, (enum base_function)fn) <= 0.1 * all)
			continue;
		if (profile_refutes(c, d, (enum base_function)fn, &w[fn], why, size) ||
		    timing_refutes(c, d, (enum base_function)fn, why, size))
			return true;
	}
	return false;
}

void tune_check(const struct calibration *c, const struct dump *d, const struct cm_workload w[FN_COUNT])
{
	printf("\nCheck: the model's time for the calls recorded, under the variant that ran (thresholds:\n"
	       "movsb and stosb as recorded, the others built in), against the time measured inside:\n");
	if (!d->profile.processes && !d->timing.processes) {
		printf("  no measurement: the dumps carry no profile.  Record with MEMSHIM_PROFILE=1 beside\n"
		       "  MEMSHIM_DUMP to measure the time inside, and to know what share of the program's CPU\n"
		       "  time a saving is; with MEMSHIM_TIMING=on to check the model size class by size class\n");
		return;
	}
	if (!tune_ns_per_unit(c)) {
		printf("  no comparison: costs are in %s, and there is no cycle counter here to turn them into time\n",
		       c->unit);
		return;
	}
	for (int fn = 0; fn < FN_COUNT; fn++) {
		if (!w[fn].count)
			continue;
		if (strcmp(d->variant[fn], "mixed") == 0 || !d->variant[fn][0])
			printf("  %s: no comparison: the dumps ran %s\n", base_function_names[fn],
			       d->variant[fn][0] ? "different variants" : "an unrecorded variant");
		else {
			if (d->profile.processes)
				check_function(c, d, (enum base_function)fn, &w[fn]);
			if (d->timing.processes)
				check_classes(c, d, (enum base_function)fn);
		}
	}
}
