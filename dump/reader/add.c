/* Dumps added up in memory, for the dump reader: every counter checked for
 * overflow first, each section also counted under its program's name. */
#include "dump/reader/add.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for `extra` more sites in *sites, which holds `have`. */
static bool reserve_sites(struct dump_site **sites, size_t have, size_t extra)
{
	if (!extra)
		return true; /* *sites may be NULL: nothing to grow */
	struct dump_site *grown = realloc(*sites, (have + extra) * sizeof *grown);
	if (!grown)
		return false;
	*sites = grown;
	return true;
}

/* Puts a site with a copy of `frames` at (*sites)[*have], already reserved. */
static bool store_site(struct dump_site *sites, size_t *have, enum base_function fn, uint64_t count,
                       uint64_t amount, const char *frames)
{
	char *copy = strdup(frames);
	if (!copy)
		return false;
	sites[(*have)++] = (struct dump_site){ .fn = fn, .count = count, .amount = amount, .frames = copy };
	return true;
}

bool hist_add_site(struct dump_site **sites, size_t *have, enum base_function fn, uint64_t count,
                   uint64_t amount, const char *frames)
{
	return reserve_sites(sites, *have, 1) && store_site(*sites, have, fn, count, amount, frames);
}


static bool merge_overflows(const struct dump *to, const struct dump *from)
{
	const uint64_t *a = (const uint64_t *)&to->hist;
	const uint64_t *b = (const uint64_t *)&from->hist;
	uint64_t sum;
	for (size_t i = 0; i < sizeof to->hist / sizeof(uint64_t); i++)
		if (__builtin_add_overflow(a[i], b[i], &sum))
			return true;
	for (int fn = 0; fn < FN_COUNT; fn++) {
		uint64_t calls = 0, bytes = 0;
		for (unsigned k = 0; k < HIST_BUCKETS; k++)
			if (__builtin_add_overflow(calls, to->hist.fn[fn].calls[k] + from->hist.fn[fn].calls[k], &calls) ||
			    __builtin_add_overflow(bytes, to->hist.fn[fn].bytes[k] + from->hist.fn[fn].bytes[k], &bytes))
				return true;
	}
	return false;
}

/* Profiles add up: CPU time, samples and wall time of every process. */
static bool profile_merge_overflows(const struct dump_profile *d, const struct dump_profile *r)
{
	const uint64_t *to = d->fn_samples, *from = r->fn_samples;
	size_t count = (size_t)((const uint64_t *)(d + 1) - to);
	uint64_t sum;
	for (size_t i = 0; i < count; i++)
		if (__builtin_add_overflow(to[i], from[i], &sum))
			return true;
	return __builtin_add_overflow(d->samples, r->samples, &sum) ||
	       __builtin_add_overflow(d->sampled_ns, r->sampled_ns, &sum) ||
	       __builtin_add_overflow(d->process_cpu_ns, r->process_cpu_ns, &sum) ||
	       __builtin_add_overflow(d->wall_ns, r->wall_ns, &sum);
}

/* Timed calls add up, bucket by bucket. */
static bool timing_merge_overflows(const struct dump_timing *d, const struct dump_timing *r)
{
	const uint64_t *to = d->calls[0], *from = r->calls[0];
	size_t count = (size_t)((const uint64_t *)(d + 1) - to);
	uint64_t sum;
	for (size_t i = 0; i < count; i++)
		if (__builtin_add_overflow(to[i], from[i], &sum))
			return true;
	return false;
}

/* The counts of processes and files, which are unsigned: a wrap to 0
 * would read as "no dump at all". */
static bool processes_overflow(const struct dump *to, const struct dump *from)
{
	unsigned sum;
	return __builtin_add_overflow(to->processes, from->processes, &sum) ||
	       __builtin_add_overflow(to->files, from->files, &sum) ||
	       __builtin_add_overflow(to->profile.processes, from->profile.processes, &sum) ||
	       __builtin_add_overflow(to->profile.handler_replaced, from->profile.handler_replaced, &sum) ||
	       __builtin_add_overflow(to->profile.recording_apart, from->profile.recording_apart, &sum) ||
	       __builtin_add_overflow(to->timing.processes, from->timing.processes, &sum) ||
	       __builtin_add_overflow(to->ab.processes, from->ab.processes, &sum);
}

/* merge_windows may double the weight when both sides hold windows (at
 * most once: each holds at most HIST_WINDOWS_MAX); one that doubled past
 * 2^64 would wrap to 0, which the readers divide by.  Checked whatever
 * the counts, as the same windows join both the whole and their
 * program's entry, which hold different counts. */
static bool window_weight_overflows(const struct dump *to, const struct dump *from)
{
	uint64_t weight = to->window_weight > from->window_weight ? to->window_weight : from->window_weight;
	return to->window_count && from->window_count && weight > UINT64_MAX / 2;
}

bool hist_add_overflows(const struct dump *to, const struct dump *from)
{
	return merge_overflows(to, from) || profile_merge_overflows(&to->profile, &from->profile) ||
	       timing_merge_overflows(&to->timing, &from->timing) || processes_overflow(to, from) ||
	       window_weight_overflows(to, from);
}

static void merge_profile(struct dump_profile *d, const struct dump_profile *r)
{
	if (!r->processes)
		return;
	uint64_t *to = d->fn_samples;
	const uint64_t *from = r->fn_samples;
	size_t count = (size_t)((const uint64_t *)(d + 1) - to);
	for (size_t i = 0; i < count; i++)
		to[i] += from[i];
	d->processes += r->processes;
	d->rate_hz = r->rate_hz;
	d->samples += r->samples;
	d->sampled_ns += r->sampled_ns;
	d->process_cpu_ns += r->process_cpu_ns;
	d->wall_ns += r->wall_ns;
	d->handler_replaced += r->handler_replaced;
	d->recording_apart += r->recording_apart;
}

static void merge_timing(struct dump_timing *d, const struct dump_timing *r)
{
	if (!r->processes)
		return;
	uint64_t *to = d->calls[0];
	const uint64_t *from = r->calls[0];
	size_t count = (size_t)((const uint64_t *)(d + 1) - to);
	for (size_t i = 0; i < count; i++)
		to[i] += from[i];
	d->processes += r->processes;
	d->every = r->every;
	d->tsc_hz = r->tsc_hz;
	d->overhead_ps = r->overhead_ps;
	strcpy(d->hz_source, r->hz_source);
	d->subtracted_ns += r->subtracted_ns;
}

/* Appends copies of `count` call sites (their text duplicated); false if out of memory. */
static bool append_sites(struct dump_site **sites, size_t *have, const struct dump_site *c, size_t count)
{
	if (!reserve_sites(sites, *have, count))
		return false;
	for (size_t i = 0; i < count; i++)
		if (!store_site(*sites, have, c[i].fn, c[i].count, c[i].amount, c[i].frames))
			return false;
	return true;
}

/* Keeps every step-th window of d's from `first` on (the others freed). */
static void keep_every(struct dump *d, size_t first, size_t step)
{
	size_t kept = first;
	for (size_t i = first; i < d->window_count; i++) {
		if ((i - first) % step == 0)
			d->windows[kept++] = d->windows[i];
		else
			free(d->windows[i].calls);
	}
	d->window_count = kept;
}

/* Appends copies of from's windows to to's, as dump/format.h says:
 * the denser side thinned to the sparser's weight, then both halved
 * together down to HIST_WINDOWS_MAX. */
static bool merge_windows(struct dump *to, const struct dump *from)
{
	if (!from->window_count)
		return true;
	if (!to->window_count || to->window_weight < from->window_weight) {
		uint64_t step = to->window_count ? from->window_weight / to->window_weight : 1;
		keep_every(to, 0, step ? step : 1);
		to->window_weight = from->window_weight;
	}
	size_t first = to->window_count;
	uint64_t step = from->window_weight < to->window_weight ? to->window_weight / from->window_weight : 1;
	struct dump_window *grown = realloc(to->windows, (first + from->window_count) * sizeof *grown);
	if (!grown)
		return false;
	to->windows = grown;
	for (size_t i = 0; i < from->window_count; i += step) {
		const struct dump_window *w = &from->windows[i];
		struct seq_call *calls = malloc(w->count * sizeof *calls);
		if (!calls)
			return false;
		memcpy(calls, w->calls, w->count * sizeof *calls);
		to->windows[to->window_count++] = (struct dump_window){ .fn = w->fn, .count = w->count, .calls = calls };
	}
	to->sequence_length = to->sequence_length > from->sequence_length ? to->sequence_length : from->sequence_length;
	while (to->window_count > HIST_WINDOWS_MAX) {
		keep_every(to, 0, 2);
		to->window_weight *= 2;
	}
	return true;
}

/* Appends from's A/B pairs to to's, up to HIST_AB_PAIRS_MAX; the settings
 * "mixed" where the two differ. */
static bool merge_ab(struct dump_ab *to, const struct dump_ab *from)
{
	if (!from->processes)
		return true;
	for (int i = 0; i < 2; i++)
		if (!to->processes)
			strcpy(to->setting[i], from->setting[i]);
		else if (strcmp(to->setting[i], from->setting[i]) != 0)
			strcpy(to->setting[i], "mixed");
	to->processes += from->processes;
	to->block_calls = from->block_calls;
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (int arm = 0; arm < 2; arm++)
			if (__builtin_add_overflow(to->dropped[fn][arm], from->dropped[fn][arm], &to->dropped[fn][arm]))
				to->dropped[fn][arm] = UINT64_MAX;
	size_t room = HIST_AB_PAIRS_MAX - to->pair_count, count = from->pair_count < room ? from->pair_count : room;
	if (!count)
		return true;
	struct ab_pair *grown = realloc(to->pairs, (to->pair_count + count) * sizeof *grown);
	if (!grown)
		return false;
	memcpy(grown + to->pair_count, from->pairs, count * sizeof *grown);
	to->pairs = grown;
	to->pair_count += count;
	return true;
}

/* Adds everything of `from` but its programs to `to`; false if out of memory.
 * The caller has checked dump_merge_overflows. */
static bool merge_counts(struct dump *to, const struct dump *from)
{
	uint64_t *a = (uint64_t *)&to->hist;
	const uint64_t *b = (const uint64_t *)&from->hist;
	for (size_t i = 0; i < sizeof to->hist / sizeof(uint64_t); i++)
		a[i] += b[i];
	for (int fn = 0; fn < FN_COUNT; fn++) {
		if (to->processes == 0)
			strcpy(to->variant[fn], from->variant[fn]);
		else if (strcmp(to->variant[fn], from->variant[fn]) != 0)
			strcpy(to->variant[fn], "mixed");
	}
	to->movsb_threshold = from->movsb_threshold;
	to->stosb_threshold = from->stosb_threshold;
	merge_profile(&to->profile, &from->profile);
	merge_timing(&to->timing, &from->timing);
	to->processes += from->processes;
	to->files += from->files;
	return merge_windows(to, from) && merge_ab(&to->ab, &from->ab) &&
	       append_sites(&to->callsites, &to->callsite_count, from->callsites, from->callsite_count) &&
	       append_sites(&to->cpu_sites, &to->cpu_site_count, from->cpu_sites, from->cpu_site_count) &&
	       append_sites(&to->time_sites, &to->time_site_count, from->time_sites, from->time_site_count);
}

/* The entry of program `name` in d, made if new; NULL if out of memory. */
static struct dump *program_entry(struct dump *d, const char *name)
{
	for (size_t i = 0; i < d->program_count; i++)
		if (strcmp(d->programs[i].name, name) == 0)
			return d->programs[i].d;
	struct dump_program *grown = realloc(d->programs, (d->program_count + 1) * sizeof *grown);
	if (!grown)
		return NULL;
	d->programs = grown;
	struct dump_program *p = &grown[d->program_count];
	p->d = calloc(1, sizeof *p->d);
	if (!p->d)
		return NULL;
	snprintf(p->name, sizeof p->name, "%s", name);
	d->program_count++;
	return p->d;
}

/* Adds `from`, of program `name`, to `to` and to its program's entry. */
bool hist_add_program(struct dump *to, const struct dump *from, const char *name)
{
	struct dump *entry = program_entry(to, name);
	return entry && merge_counts(to, from) && merge_counts(entry, from);
}

/* The section just read joins the file's earlier ones, unless filtered out. */
