/* Reading dumps, for the tools: every line is checked, and a file that is
 * truncated, of another version, or malformed is refused whole with a
 * reason, so a merge never silently counts half a file. */
#include "preload/histogram_format.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hist_dump_init(struct dump *d)
{
	memset(d, 0, sizeof *d);
}

/* Frees the text of each site, not the array. */
static void free_sites(struct dump_site *c, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(c[i].frames);
}

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

static bool add_site(struct dump_site **sites, size_t *have, enum base_function fn, uint64_t count,
                     uint64_t amount, const char *frames)
{
	return reserve_sites(sites, *have, 1) && store_site(*sites, have, fn, count, amount, frames);
}

void hist_dump_free(struct dump *d)
{
	free_sites(d->callsites, d->callsite_count);
	free(d->callsites);
	free_sites(d->cpu_sites, d->cpu_site_count);
	free(d->cpu_sites);
	free_sites(d->time_sites, d->time_site_count);
	free(d->time_sites);
	for (size_t i = 0; i < d->program_count; i++) {
		hist_dump_free(d->programs[i].d);
		free(d->programs[i].d);
	}
	free(d->programs);
	const char *filter = d->program_filter;
	hist_dump_init(d);
	d->program_filter = filter;
}

/* Parses up to `max` unsigned decimal numbers separated by single spaces;
 * returns how many, or -1 if anything else is on the line. */
static int parse_numbers(const char *text, uint64_t *out, int max)
{
	int count = 0;
	for (bool first = true; first || *text == ' '; first = false) {
		text += !first;
		if (count == max || *text < '0' || *text > '9')
			return -1;
		errno = 0;
		char *end;
		unsigned long long v = strtoull(text, &end, 10);
		if (errno == ERANGE)
			return -1;
		out[count++] = v;
		text = end;
	}
	return *text == '\0' ? count : -1;
}

static int function_named(const char *name, size_t len)
{
	for (int fn = 0; fn < FN_COUNT; fn++)
		if (strlen(base_function_names[fn]) == len && strncmp(name, base_function_names[fn], len) == 0)
			return fn;
	return -1;
}

/* The state of reading one file: the section in hand, and the file's
 * sections before it, added up in `file`. */
struct reading {
	struct dump sec;       /* this section's counts */
	int function;          /* the "function" record in force, or -1 */
	bool header_seen, end_seen, profile_seen, timing_seen;
	char program[256];
	unsigned section, sections; /* this section's index; how many the file says it has (0: one) */
	struct dump *file;
};

static bool add_checked(uint64_t *counter, uint64_t n)
{
	return !__builtin_add_overflow(*counter, n, counter);
}

static const char *read_bucket(struct reading *r, const uint64_t *v, int count)
{
	if (count != 4)
		return "bucket needs lo hi calls bytes";
	unsigned b = hist_bucket(v[0]);
	if (hist_bucket_lo(b) != v[0] || hist_bucket_hi(b) != v[1])
		return "bucket bounds are not a bucket of this format";
	struct function_histogram *f = &r->sec.hist.fn[r->function];
	if (!add_checked(&f->calls[b], v[2]) || !add_checked(&f->bytes[b], v[3]))
		return "counter overflow";
	return NULL;
}

static const char *read_cpu_bucket(struct reading *r, const uint64_t *v, int count)
{
	if (count != 4)
		return "cpu needs lo hi samples ns";
	if (!r->profile_seen)
		return "cpu before the profile line";
	unsigned b = hist_bucket(v[0]);
	if (hist_bucket_lo(b) != v[0] || hist_bucket_hi(b) != v[1])
		return "cpu bounds are not a bucket of this format";
	struct dump_profile *p = &r->sec.profile;
	int fn = r->function;
	if (!add_checked(&p->bucket_samples[fn][b], v[2]) || !add_checked(&p->bucket_ns[fn][b], v[3]) ||
	    !add_checked(&p->fn_samples[fn], v[2]) || !add_checked(&p->fn_ns[fn], v[3]))
		return "counter overflow";
	if (p->fn_samples[fn] > p->samples - p->recording_samples[fn])
		return "more samples inside a function than in the profile";
	return NULL;
}

static const char *read_recording_cpu(struct reading *r, const uint64_t *v, int count)
{
	if (count != 2)
		return "recording_cpu needs samples ns";
	if (!r->profile_seen)
		return "recording_cpu before the profile line";
	struct dump_profile *p = &r->sec.profile;
	int fn = r->function;
	if (!add_checked(&p->recording_samples[fn], v[0]) || !add_checked(&p->recording_ns[fn], v[1]))
		return "counter overflow";
	if (p->recording_samples[fn] > p->samples - p->fn_samples[fn])
		return "more samples inside a function than in the profile";
	return NULL;
}

static const char *read_timed_bucket(struct reading *r, const uint64_t *v, int count)
{
	if (count != 6)
		return "timed needs lo hi calls ns squares dropped";
	if (!r->timing_seen)
		return "timed before the timing line";
	unsigned b = hist_bucket(v[0]);
	if (hist_bucket_lo(b) != v[0] || hist_bucket_hi(b) != v[1])
		return "timed bounds are not a bucket of this format";
	struct dump_timing *t = &r->sec.timing;
	int fn = r->function;
	if (!add_checked(&t->calls[fn][b], v[2]) || !add_checked(&t->ns[fn][b], v[3]) ||
	    !add_checked(&t->squares[fn][b], v[4]) || !add_checked(&t->dropped[fn][b], v[5]))
		return "counter overflow";
	t->subtracted_ns += (double)v[2] * (double)t->overhead_ps / 1000;
	return NULL;
}

static const char *read_mod64(uint64_t *table, const uint64_t *v, int count)
{
	if (count != 2 || v[0] >= 64)
		return "expected an offset below 64 and a count";
	return add_checked(&table[v[0]], v[1]) ? NULL : "counter overflow";
}

static const char *read_pair(uint64_t *a, uint64_t *b, const uint64_t *v, int count)
{
	if (count != 2)
		return "expected two numbers";
	return add_checked(a, v[0]) && add_checked(b, v[1]) ? NULL : "counter overflow";
}

/* "alias4k_near CALLS BYTES LARGE_CALLS LARGE_BYTES": the large ones are some of the others. */
static const char *read_alias_near(struct function_histogram *f, const uint64_t *v, int count)
{
	if (count != 4 || v[2] > v[0] || v[3] > v[1])
		return "alias4k_near needs calls, bytes, and the calls and bytes from 2 KiB, no more than those";
	return read_pair(&f->alias_near_calls, &f->alias_near_bytes, v, 2) ?:
	       read_pair(&f->alias_near_large_calls, &f->alias_near_large_bytes, v + 2, 2);
}

static const char *read_callsite(struct reading *r, const char *rest)
{
	const char *space = strchr(rest, ' ');
	int fn = space ? function_named(rest, (size_t)(space - rest)) : -1;
	if (fn < 0)
		return "callsite needs a function name";
	char *end;
	errno = 0;
	uint64_t calls = strtoull(space + 1, &end, 10);
	uint64_t bytes = *end == ' ' ? strtoull(end + 1, &end, 10) : 0;
	if (errno || *end != ' ' || end[1] == '\0')
		return "callsite needs calls, bytes and frames";
	return add_site(&r->sec.callsites, &r->sec.callsite_count, (enum base_function)fn, calls, bytes, end + 1)
	               ? NULL : "out of memory";
}

static const char *read_profile(struct reading *r, const char *rest)
{
	uint64_t v[6];
	if (r->profile_seen)
		return "a second profile line";
	if (parse_numbers(rest, v, 6) != 6 || v[5] > 1)
		return "profile needs rate_hz samples sampled_ns process_cpu_ns wall_ns handler_replaced";
	r->profile_seen = true;
	r->sec.profile = (struct dump_profile){ .processes = 1, .rate_hz = v[0], .samples = v[1],
	                                    .sampled_ns = v[2], .process_cpu_ns = v[3], .wall_ns = v[4],
	                                    .handler_replaced = (unsigned)v[5] };
	r->function = -1; /* the cpu records name their function again */
	return NULL;
}

/* How many of the section's profiled processes count the recording's own
 * time apart (version 3; none before). */
static const char *read_recording_apart(struct reading *r, const char *rest)
{
	uint64_t v;
	if (!r->profile_seen)
		return "recording_apart before the profile line";
	if (parse_numbers(rest, &v, 1) != 1 || v > r->sec.profile.processes)
		return "recording_apart needs a count of at most the profiled processes";
	r->sec.profile.recording_apart = (unsigned)v;
	return NULL;
}

/* A merged section's count of processes with a profile, and of those whose
 * program took over the signal (the profile line's flag is 0 or 1). */
static const char *read_profile_processes(struct reading *r, const char *rest)
{
	uint64_t v[2];
	if (!r->profile_seen)
		return "profile_processes before the profile line";
	if (parse_numbers(rest, v, 2) != 2 || v[0] == 0 || v[0] > r->sec.processes || v[1] > v[0])
		return "profile_processes needs processes (1..the section's) and replaced (at most those)";
	r->sec.profile.processes = (unsigned)v[0];
	r->sec.profile.handler_replaced = (unsigned)v[1];
	return NULL;
}

static const char *read_timing(struct reading *r, const char *rest)
{
	static const char *const sources[] = { "cpuid-0x15", "cpuid-0x16", "monotonic" };
	if (r->timing_seen)
		return "a second timing line";
	const char *source = rest;
	for (int spaces = 0; source && spaces < 3; spaces++)
		if ((source = strchr(source, ' ')))
			source++;
	char numbers[72];
	uint64_t v[3];
	size_t len = source ? (size_t)(source - 1 - rest) : 0;
	if (!source || len >= sizeof numbers)
		return "timing needs every, tsc_hz, overhead_ps and the Hz's source";
	memcpy(numbers, rest, len);
	numbers[len] = '\0';
	if (parse_numbers(numbers, v, 3) != 3 || v[0] == 0 || v[1] == 0)
		return "timing needs every (from 1), tsc_hz (from 1), overhead_ps and the Hz's source";
	unsigned i = 0;
	while (i < sizeof sources / sizeof sources[0] && strcmp(source, sources[i]) != 0)
		i++;
	if (i == sizeof sources / sizeof sources[0])
		return "timing: the Hz's source is not cpuid-0x15, cpuid-0x16 or monotonic";
	r->timing_seen = true;
	struct dump_timing *t = &r->sec.timing;
	*t = (struct dump_timing){ .processes = 1, .every = v[0], .tsc_hz = v[1], .overhead_ps = v[2] };
	strcpy(t->hz_source, source);
	r->function = -1; /* the timed records name their function again */
	return NULL;
}

/* A merged section's count of processes that timed calls. */
static const char *read_timing_processes(struct reading *r, const char *rest)
{
	uint64_t v;
	if (!r->timing_seen)
		return "timing_processes before the timing line";
	if (parse_numbers(rest, &v, 1) != 1 || v == 0 || v > r->sec.processes)
		return "timing_processes needs processes (1..the section's)";
	r->sec.timing.processes = (unsigned)v;
	return NULL;
}

/* "FN N1 N2 FRAME": a site's function, two counts and one frame (cpu_site, time_site). */
static const char *read_site_line(const char *rest, int *fn, uint64_t v[2], const char **frame)
{
	const char *space = strchr(rest, ' ');
	*fn = space ? function_named(rest, (size_t)(space - rest)) : -1;
	if (*fn < 0)
		return "needs a function name";
	const char *f = strchr(space + 1, ' ');
	f = f ? strchr(f + 1, ' ') : NULL;
	if (!f || f[1] == '\0' || strchr(f + 1, ' '))
		return "needs two counts and one frame";
	char numbers[48];
	size_t len = (size_t)(f - (space + 1));
	if (len >= sizeof numbers)
		return "counts too long";
	memcpy(numbers, space + 1, len);
	numbers[len] = '\0';
	if (parse_numbers(numbers, v, 2) != 2)
		return "needs two counts and one frame";
	*frame = f + 1;
	return NULL;
}

static const char *read_time_site(struct reading *r, const char *rest)
{
	int fn;
	uint64_t v[2];
	const char *frame;
	if (read_site_line(rest, &fn, v, &frame))
		return "time_site needs a function name, calls, ns and one frame";
	if (!r->timing_seen)
		return "time_site before the timing line";
	return add_site(&r->sec.time_sites, &r->sec.time_site_count, (enum base_function)fn, v[0], v[1], frame)
	               ? NULL : "out of memory";
}

static const char *read_cpu_site(struct reading *r, const char *rest)
{
	int fn;
	uint64_t v[2];
	const char *frame;
	if (read_site_line(rest, &fn, v, &frame))
		return "cpu_site needs a function name, samples, ns and one frame";
	if (!r->profile_seen || v[0] > r->sec.profile.samples)
		return "cpu_site without a profile, or with more samples than it";
	return add_site(&r->sec.cpu_sites, &r->sec.cpu_site_count, (enum base_function)fn, v[0], v[1], frame)
	               ? NULL : "out of memory";
}

/* Records that only make sense after a "function" line. */
static const char *read_function_record(struct reading *r, const char *key, const char *rest)
{
	uint64_t v[6];
	int count = parse_numbers(rest, v, strcmp(key, "timed") == 0 ? 6 : 4);
	if (r->function < 0)
		return "counter before any function line";
	if (count < 0)
		return "expected numbers";
	struct function_histogram *f = &r->sec.hist.fn[r->function];
	if (strcmp(key, "bucket") == 0)
		return read_bucket(r, v, count);
	if (strcmp(key, "dst_mod64") == 0)
		return read_mod64(f->dst_mod64, v, count);
	if (strcmp(key, "delta_mod64") == 0)
		return read_mod64(f->delta_mod64, v, count);
	if (strcmp(key, "alias4k_same") == 0)
		return read_pair(&f->alias_same_calls, &f->alias_same_bytes, v, count);
	if (strcmp(key, "alias4k_near") == 0)
		return read_alias_near(f, v, count);
	if (strcmp(key, "alias4k") == 0)
		return read_pair(&f->alias_unsplit_calls, &f->alias_unsplit_bytes, v, count);
	if (strcmp(key, "overlap") == 0)
		return read_pair(&f->overlap_dst_before, &f->overlap_dst_after, v, count);
	if (strcmp(key, "zero") == 0)
		return read_pair(&f->zero_calls, &f->zero_bytes, v, count);
	if (strcmp(key, "cpu") == 0)
		return read_cpu_bucket(r, v, count);
	if (strcmp(key, "timed") == 0)
		return read_timed_bucket(r, v, count);
	if (strcmp(key, "recording_cpu") == 0)
		return read_recording_cpu(r, v, count);
	return "unknown record";
}

/* "NAME N": a word that fits in name[size] and one number, nothing else
 * (sscanf's %llu would take "-1" as 2^64-1). */
static bool name_and_number(const char *text, char *name, size_t size, uint64_t *v)
{
	const char *space = strchr(text, ' ');
	if (!space || space == text || (size_t)(space - text) >= size)
		return false;
	memcpy(name, text, (size_t)(space - text));
	name[space - text] = '\0';
	return parse_numbers(space + 1, v, 1) == 1;
}

/* read_header_record's answer for a key that is not a header record. */
static const char not_a_header_record[] = "not a header record";

static const char *read_header_record(struct reading *r, const char *key, const char *rest)
{
	if (strcmp(key, "pid") == 0 || strcmp(key, "reason") == 0)
		return *rest ? NULL : "expected a value";
	if (strcmp(key, "program") == 0) {
		if (!*rest || strlen(rest) >= sizeof r->program)
			return "program needs a name (of at most 255 bytes)";
		strcpy(r->program, rest);
		return NULL;
	}
	if (strcmp(key, "processes") == 0 || strcmp(key, "sections") == 0) {
		uint64_t v;
		if (parse_numbers(rest, &v, 1) != 1 || v == 0 || v > UINT32_MAX)
			return "expected a count from 1";
		if (key[1] == 'r')
			r->sec.processes = (unsigned)v;
		else if (r->section > 0)
			return "sections after the first section";
		else
			r->sections = (unsigned)v;
		return NULL;
	}
	if (strcmp(key, "variant") == 0) {
		char name[16], variant[32];
		if (sscanf(rest, "%15s %31s", name, variant) != 2 || function_named(name, strlen(name)) < 0)
			return "variant needs a function and a name";
		strcpy(r->sec.variant[function_named(name, strlen(name))], variant);
		return NULL;
	}
	if (strcmp(key, "threshold") == 0) {
		char name[16];
		uint64_t v;
		if (!name_and_number(rest, name, sizeof name, &v))
			return "threshold needs a name and a number";
		if (strcmp(name, "erms") == 0)
			r->sec.erms_threshold = v;
		else if (strcmp(name, "stosb") == 0)
			r->sec.stosb_threshold = v;
		return NULL;
	}
	if (strcmp(key, "entry") == 0) {
		char name[32];
		uint64_t v;
		if (!name_and_number(rest, name, sizeof name, &v))
			return "entry needs a name and a count";
		for (int e = 0; e < E_COUNT; e++)
			if (strcmp(name, entry_point_names[e]) == 0)
				return add_checked(&r->sec.hist.entry_calls[e], v) ? NULL : "counter overflow";
		return "unknown entry point";
	}
	return not_a_header_record;
}

static const char *finish_section(struct reading *r);

/* A new section: the first line of the file, or the line after an end. */
static const char *start_section(struct reading *r, const char *line, const char *rest)
{
	char *end;
	long version = strcmp(line, HIST_FORMAT_NAME) == 0 && *rest >= '0' && *rest <= '9'
	                       ? strtol(rest, &end, 10) : -1;
	if (version < 0)
		return r->end_seen ? "text after the end line" : "not a memshim histogram (no memshim-histogram header)";
	if (version < HIST_FORMAT_OLDEST || version > HIST_FORMAT_VERSION || *end != '\0')
		return "unsupported format version (this memshim reads versions 1 to 5)";
	if (r->end_seen) {
		const char *problem = finish_section(r);
		if (problem)
			return problem;
		r->section++;
	}
	hist_dump_init(&r->sec);
	r->sec.processes = 1;
	r->function = -1;
	r->end_seen = r->profile_seen = r->timing_seen = false;
	strcpy(r->program, "?");
	r->header_seen = true;
	return NULL;
}

static const char *read_line(struct reading *r, char *line)
{
	char *space = strchr(line, ' ');
	const char *rest = space ? space + 1 : "";
	if (space)
		*space = '\0';
	if (!r->header_seen || r->end_seen)
		return start_section(r, line, rest);
	if (strcmp(line, "end") == 0) {
		r->end_seen = true;
		return *rest ? "text after end" : NULL;
	}
	if (strcmp(line, "function") == 0) {
		r->function = function_named(rest, strlen(rest));
		return r->function < 0 ? "unknown function" : NULL;
	}
	if (strcmp(line, "callsite") == 0)
		return read_callsite(r, rest);
	if (strcmp(line, "profile") == 0)
		return read_profile(r, rest);
	if (strcmp(line, "profile_processes") == 0)
		return read_profile_processes(r, rest);
	if (strcmp(line, "recording_apart") == 0)
		return read_recording_apart(r, rest);
	if (strcmp(line, "cpu_site") == 0)
		return read_cpu_site(r, rest);
	if (strcmp(line, "timing") == 0)
		return read_timing(r, rest);
	if (strcmp(line, "timing_processes") == 0)
		return read_timing_processes(r, rest);
	if (strcmp(line, "time_site") == 0)
		return read_time_site(r, rest);
	const char *header_problem = read_header_record(r, line, rest);
	if (header_problem != not_a_header_record)
		return header_problem;
	return read_function_record(r, line, rest);
}

/* Whether adding `from` to `to` overflows any counter, or any function's
 * calls or bytes summed over its buckets (the totals every report shows). */
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

static bool dump_merge_overflows(const struct dump *to, const struct dump *from)
{
	return merge_overflows(to, from) || profile_merge_overflows(&to->profile, &from->profile) ||
	       timing_merge_overflows(&to->timing, &from->timing);
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
	to->erms_threshold = from->erms_threshold;
	to->stosb_threshold = from->stosb_threshold;
	merge_profile(&to->profile, &from->profile);
	merge_timing(&to->timing, &from->timing);
	to->processes += from->processes;
	to->files += from->files;
	return append_sites(&to->callsites, &to->callsite_count, from->callsites, from->callsite_count) &&
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
static bool merge_program(struct dump *to, const struct dump *from, const char *name)
{
	struct dump *entry = program_entry(to, name);
	return entry && merge_counts(to, from) && merge_counts(entry, from);
}

/* The section just read joins the file's earlier ones, unless filtered out. */
static const char *finish_section(struct reading *r)
{
	const char *problem = NULL;
	const char *filter = r->file->program_filter;
	if (filter && strcmp(filter, r->program) != 0)
		problem = NULL;
	else if (dump_merge_overflows(r->file, &r->sec))
		problem = r->section ? "counts overflow when added to the sections before"
		                     : "counts overflow when summed over a function's buckets";
	else if (!merge_program(r->file, &r->sec, r->program))
		problem = "out of memory";
	hist_dump_free(&r->sec);
	return problem;
}

/* Adds a whole file, read into `file`, to d. */
static bool merge_file(struct dump *d, const struct dump *file)
{
	for (size_t i = 0; i < file->program_count; i++)
		if (!merge_program(d, file->programs[i].d, file->programs[i].name))
			return false;
	d->files++;
	return true;
}

/* Reads every line of f into r; the problem, or NULL.  *number: the line. */
static const char *read_lines(FILE *f, struct reading *r, unsigned *number)
{
	char line[8192];
	const char *problem = NULL;
	while (!problem && fgets(line, sizeof line, f)) {
		++*number;
		size_t len = strlen(line);
		if (len == 0 || line[len - 1] != '\n')
			return feof(f) ? "truncated: the last line is incomplete" : "line too long";
		line[len - 1] = '\0';
		problem = read_line(r, line);
	}
	if (!problem && ferror(f))
		problem = strerror(errno);
	if (!problem && *number == 0)
		problem = "empty file";
	else if (!problem && !r->end_seen)
		problem = "truncated: no end line";
	if (problem)
		return problem;
	*number = 0; /* what follows is about the whole file */
	if ((problem = finish_section(r)) != NULL)
		return problem;
	if (r->section + 1 != (r->sections ? r->sections : 1))
		return "truncated: fewer sections than its first says";
	return NULL;
}

bool hist_read_file(const char *path, struct dump *d, char *why, size_t why_size)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(why, why_size, "%s", strerror(errno));
		return false;
	}
	struct reading *r = calloc(1, sizeof *r);
	struct dump *file = calloc(1, sizeof *file);
	if (!r || !file) {
		fclose(f);
		free(r);
		free(file);
		snprintf(why, why_size, "out of memory");
		return false;
	}
	file->program_filter = d->program_filter;
	r->file = file;
	unsigned number = 0;
	const char *problem = read_lines(f, r, &number);
	fclose(f);
	if (!problem && dump_merge_overflows(d, file))
		problem = d->files ? "counts overflow when added to the files before"
		                   : "counts overflow when summed over a function's buckets";
	if (!problem && !merge_file(d, file))
		problem = "out of memory";
	if (problem)
		snprintf(why, why_size, number ? "line %u: %s" : "%.0u%s", number, problem);
	hist_dump_free(&r->sec);
	hist_dump_free(file);
	free(file);
	free(r);
	return !problem;
}
