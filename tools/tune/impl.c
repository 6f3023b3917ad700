/* memshim tune --impl SETTING: what a setting a user can run would take in
 * these functions, against glibc: from the replay of the dumps' windows
 * of calls where they have some, else from the histogram and the model. */
#include "tools/tune/tune.h"

#include "dump/format.h"
#include "tools/util/units_shares.h"

#include <stdio.h>
#include <string.h>

static void print_setting(const char *value, const struct tune_setting *s)
{
	double t[T_COUNT];
	tune_setting_thresholds(s, t);
	printf("memshim tune --impl %s\n  runs as: memcpy %s, memmove %s, memset %s\n  with thresholds:", value,
	       s->text[FN_MEMCPY], s->text[FN_MEMMOVE], s->text[FN_MEMSET]);
	for (int i = 0; i < T_COUNT; i++) {
		char size[32];
		printf("%s %s %s", i ? "," : "", threshold_keys((enum threshold_name)i)->name,
		       human_size((uint64_t)t[i], size, sizeof size));
	}
	printf("\n  (what a program started in this environment gets: the calibration file, the variables)\n");
}

static void print_ratios(const struct tune_replayed *p, const char *basis)
{
	for (int fn = 0; fn < FN_COUNT; fn++) {
		if (!p->has[fn])
			continue;
		printf("  %-8s %.3f (%.3f .. %.3f)", base_function_names[fn], p->ratio[fn], p->low[fn], p->high[fn]);
		if (p->left_out[fn] > 0.0005)
			printf("  (%.1f%% of its calls, in size classes the windows hold too few of, left out)",
			       100 * p->left_out[fn]);
		if (p->by_timing[fn] > 0.0005)
			printf("  (%.1f%% of its calls placed by the timed calls)", 100 * p->by_timing[fn]);
		printf("\n");
	}
	printf("predicted ratio to glibc: %.3f (%.3f .. %.3f), from the %s\n", p->ratio[FN_COUNT], p->low[FN_COUNT],
	       p->high[FN_COUNT], basis);
}

static int from_replay(const struct dump *d, const struct tune_setting *s, struct tune_replay_how how)
{
	static const char *const where[] = { "every size class in L1", "every size class in L2",
					     "every size class in the L3", "every size class cold",
					     "size classes to 32 KiB in L2, larger ones\ncold",
					     ("each size class where the program's timed\ncalls of glibc's functions put it, "
					      "others by size") };
	struct tune_replayed p;
	printf("from the replay of %zu windows of up to %u calls (%s%s), weighted by the histogram's\n"
	       "calls and glibc's time per call; ratio to glibc's time in each function, its ~95%% interval:\n",
	       d->window_count, d->sequence_length, where[how.place], how.fenced ? "; each call fenced" : "");
	if (!tune_replay(d, s, NULL, how, &p))
		return 1;
	if (!p.has[FN_COUNT]) {
		fprintf(stderr, "memshim tune: the windows hold too few calls to replay\n");
		return 1;
	}
	print_ratios(&p, "replay");
	return 0;
}

static int from_histogram(const struct calibration *c, const struct dump *d, const struct tune_setting *s)
{
	struct tune_replayed p;
	printf("from the histogram and this machine's cost curves (the model); ratio to glibc's time in\n"
	       "each function, p10..p90 over the calibration's rounds:\n");
	if (!tune_model_setting(c, d, s, &p)) {
		fprintf(stderr, "memshim tune: the calibration has no curve for a variant of this setting\n");
		return 1;
	}
	print_ratios(&p, "histogram");
	return 0;
}

int tune_impl(const struct calibration *c, const struct dump *d, const char *setting, const char *basis,
	      struct tune_replay_how how)
{
	struct tune_setting s;
	char why[400];
	if (!tune_setting_parse(setting, &s, why, sizeof why)) {
		fprintf(stderr, "memshim tune: --impl %s\n", why);
		return 2;
	}
	print_setting(setting, &s);
	uint64_t calls = 0;
	for (int fn = 0; fn < FN_COUNT; fn++)
		calls += sum_buckets(d->hist.fn[fn].calls);
	if (!calls) {
		printf("The dumps hold no calls: nothing to predict.\n");
		return 0;
	}
	bool replay = basis ? strcmp(basis, "replay") == 0 : d->window_count > 0;
	if (replay && !d->window_count) {
		fprintf(stderr, "memshim tune: --basis replay: the dumps hold no windows of calls (record with memshim "
				"record --sequences, or MEMSHIM_SEQUENCES=on)\n");
		return 1;
	}
	if (!replay && !basis)
		printf("(the dumps hold no windows of calls, so no replay: memshim record --sequences records them)\n");
	return replay ? from_replay(d, &s, how) : from_histogram(c, d, &s);
}
