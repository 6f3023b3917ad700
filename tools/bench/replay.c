/* memshim bench --replay DUMP: every variant and glibc timed on the
 * program's own recorded windows of calls (tools/measure/replay.h), in each
 * placement, for each function as a whole and each size class; the ratio
 * to glibc with its interval. */
#include "config.h"

#include "tools/bench/bench.h"
#include "tools/measure/progress.h"
#include "dump/reader/read.h"
#include "tools/measure/replay.h"

#include <stdlib.h>
#include <string.h>

#define REPLAY_CASES (FN_COUNT * PLACE_COUNT * (REPLAY_CLASSES + 1))

struct replay_plan {
	struct replay_calls all[FN_COUNT], by_class[FN_COUNT][REPLAY_CLASSES];
	struct measure_case cases[REPLAY_CASES];
	struct measure_result results[REPLAY_CASES];
	size_t count;
};

static void plan_function(struct replay_plan *p, const struct dump *d, enum base_function fn)
{
	if (!replay_gather(d, fn, 0, SIZE_MAX, &p->all[fn]))
		return;
	for (unsigned k = 0; k < REPLAY_CLASSES; k++)
		if (replay_gather(d, fn, replay_classes[k].lo, replay_classes[k].hi, &p->by_class[fn][k]) &&
		    p->by_class[fn][k].count < REPLAY_MIN_CALLS)
			replay_free(&p->by_class[fn][k]);
	for (int place = 0; place < PLACE_COUNT; place++) {
		p->cases[p->count++] = replay_case(fn, &p->all[fn], (enum placement)place, "all calls");
		for (unsigned k = 0; k < REPLAY_CLASSES; k++)
			if (p->by_class[fn][k].count)
				p->cases[p->count++] = replay_case(fn, &p->by_class[fn][k], (enum placement)place,
								   replay_classes[k].label);
	}
}

static void free_plan(struct replay_plan *p)
{
	for (int fn = 0; fn < FN_COUNT; fn++) {
		replay_free(&p->all[fn]);
		for (unsigned k = 0; k < REPLAY_CLASSES; k++)
			replay_free(&p->by_class[fn][k]);
	}
	free(p);
}

/* ---- the text ---- */

#define CELL 19      /* " 0.993 0.990-0.997": the engine resolves a few tenths of a percent */
#define PER_LINE 3   /* cells beside a label and glibc's time in 100 columns */

static void print_cell(const struct measure_result *r, unsigned v)
{
	if (!(r->ratio[v] > 0))
		printf(" %*s", CELL - 1, "-");
	else
		printf(" %6.3f %5.3f-%-5.3f", r->ratio[v], r->ratio_low[v], r->ratio_high[v]);
}

/* One function in one placement: lines[0..n), glibc's ns per call and each
 * variant's median ratio to it and its interval, PER_LINE variants a block. */
static void print_table(const struct measure_settings *s, const struct measure_result *lines, size_t n)
{
	const struct measure_case *c = &lines[0].c;
	printf("\n%s, replayed, data in %s (ratio to glibc, and its ~95%% interval over up to %u pairs)\n",
	       base_function_names[c->fn], placement_names[c->place], lines[0].rounds);
	unsigned others[MEASURE_MAX_COLUMNS], count = 0;
	for (unsigned v = 0; v < s->variant_count; v++)
		if (v != s->glibc && measure_variant_has(&s->variants[v], c->fn))
			others[count++] = v;
	for (unsigned first = 0; first < count; first += PER_LINE) {
		printf("%-22s %10s", "calls", "glibc");
		for (unsigned i = first; i < count && i < first + PER_LINE; i++)
			printf(" %-*s", CELL - 1, s->variants[others[i]].name);
		printf("\n");
		for (size_t r = 0; r < n; r++) {
			char label[64];
			snprintf(label, sizeof label, "%s (%zu)", lines[r].c.label, lines[r].c.replay->count);
			printf("%-22s %7.2f %s", label, lines[r].median[s->glibc], s->clock.unit);
			for (unsigned i = first; i < count && i < first + PER_LINE; i++)
				print_cell(&lines[r], others[i]);
			printf("\n");
		}
	}
}

static void print_results(const struct measure_settings *s, const struct replay_plan *p)
{
	for (size_t i = 0, end; i < p->count; i = end) {
		for (end = i + 1; end < p->count && p->cases[end].fn == p->cases[i].fn &&
				  p->cases[end].place == p->cases[i].place;
		     end++)
			;
		print_table(s, &p->results[i], end - i);
	}
}

static size_t largest(const struct replay_plan *p)
{
	size_t max = 0;
	for (int fn = 0; fn < FN_COUNT; fn++)
		max = p->all[fn].max > max ? p->all[fn].max : max;
	return max;
}

static void run_cases(struct measure_settings *s, struct replay_plan *p)
{
	struct progress bar;
	progress_start(&bar, "memshim bench --replay", (unsigned)p->count);
	for (size_t i = 0; i < p->count; i++) {
		char detail[120];
		snprintf(detail, sizeof detail, "%s %s %s", base_function_names[p->cases[i].fn], p->cases[i].label,
			 placement_names[p->cases[i].place]);
		progress_step(&bar, detail);
		measure_run(s, &p->cases[i], &p->results[i]);
	}
	progress_end(&bar);
}

int bench_replay(const char *path, struct measure_settings *s, unsigned functions, FILE *csv)
{
	static struct dump d;
	char why[600];
	hist_dump_init(&d);
	if (!hist_read_file(path, &d, why, sizeof why)) {
		fprintf(stderr, "memshim bench: --replay %s: %s\n", path, why);
		return 1;
	}
	struct replay_plan *p = calloc(1, sizeof *p);
	for (int fn = 0; p && fn < FN_COUNT; fn++)
		if (functions & (1u << fn))
			plan_function(p, &d, (enum base_function)fn);
	int rc = 1;
	if (p && !p->count)
		fprintf(stderr, "memshim bench: --replay %s: no windows of calls%s to replay (record with memshim "
				"record --sequences, or MEMSHIM_SEQUENCES=on)\n", path,
			d.window_count ? " of the functions asked" : "");
	else if (p && measure_buffers_init(largest(p), s->cold_bytes)) {
		printf("memshim bench --replay %s: %zu windows of up to %u calls, %s\n", path, d.window_count,
		       d.sequence_length, d.program_count == 1 ? d.programs[0].name : "several programs");
		report_header(stdout, s);
		run_cases(s, p);
		print_results(s, p);
		if (csv)
			report_csv(csv, s, p->results, p->count);
		rc = 0;
	}
	if (p)
		free_plan(p);
	hist_dump_free(&d);
	return rc;
}
