/* The records of a dump's section, each line checked: the header's, the
 * profile's and timed calls', call sites, and a function's buckets and
 * tables. */
#include "dump/reader/records.h"

#include "dispatch/config.h"
#include "dump/reader/add.h"
#include "tools/util/parse_number.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses up to `max` unsigned decimal numbers separated by single spaces;
 * returns how many, or -1 if anything else is on the line. */
static int parse_numbers(const char *text, uint64_t *out, int max)
{
	int count = 0;
	for (bool first = true; first || *text == ' '; first = false) {
		text += !first;
		if (count == max || !parse_u64(&text, &out[count]))
			return -1;
		count++;
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

static bool add_checked(uint64_t *counter, uint64_t n)
{
	return !__builtin_add_overflow(*counter, n, counter);
}

/* Whether [v[0], v[1]) are the bounds of a bucket of this format, its number into *b. */
static bool bucket_of(const uint64_t *v, unsigned *b)
{
	*b = hist_bucket(v[0]);
	return hist_bucket_lo(*b) == v[0] && hist_bucket_hi(*b) == v[1];
}

static const char *read_bucket(struct reading *r, const uint64_t *v, int count)
{
	if (count != 4)
		return "bucket needs lo hi calls bytes";
	unsigned b;
	if (!bucket_of(v, &b))
		return "bucket bounds are not a bucket of this format";
	if (v[2] == 0 && v[3] != 0) /* every mean shown divides one by the other */
		return "bucket with bytes but no calls";
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
	unsigned b;
	if (!bucket_of(v, &b))
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
	unsigned b;
	if (!bucket_of(v, &b))
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
	const char *at = space + 1;
	uint64_t calls, bytes;
	if (!parse_u64(&at, &calls) || *at++ != ' ' || !parse_u64(&at, &bytes) || *at != ' ' || at[1] == '\0')
		return "callsite needs calls, bytes and frames";
	return hist_add_site(&r->sec.callsites, &r->sec.callsite_count, (enum base_function)fn, calls, bytes, at + 1)
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
	return hist_add_site(&r->sec.time_sites, &r->sec.time_site_count, (enum base_function)fn, v[0], v[1], frame)
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
	return hist_add_site(&r->sec.cpu_sites, &r->sec.cpu_site_count, (enum base_function)fn, v[0], v[1], frame)
	               ? NULL : "out of memory";
}

/* ---- windows of calls (MEMSHIM_SEQUENCES) ---- */

_Static_assert(SEQUENCES_MAX_LENGTH == 1024, "read_sequences's message names the largest length");
_Static_assert(HIST_WINDOWS_MAX == 4096, "read_window's message names the most windows");

static const char *read_sequences(struct reading *r, const char *rest)
{
	uint64_t v[2];
	if (parse_numbers(rest, v, 2) != 2 || v[0] == 0 || v[0] > SEQUENCES_MAX_LENGTH || v[1] == 0)
		return "sequences needs a window length (1 to 1024) and calls per window";
	if (r->sec.sequence_length)
		return "a second sequences record";
	r->sec.sequence_length = (unsigned)v[0];
	r->sec.window_weight = v[1];
	return NULL;
}

static const char *read_window(struct reading *r, const char *rest)
{
	const char *space = strchr(rest, ' ');
	int fn = space ? function_named(rest, (size_t)(space - rest)) : -1;
	uint64_t count;
	if (!r->sec.sequence_length)
		return "window before the sequences record";
	if (r->sec.window_count == HIST_WINDOWS_MAX)
		return "more windows than a section holds (4096)";
	if (fn < 0 || parse_numbers(space + 1, &count, 1) != 1 || count == 0 || count > r->sec.sequence_length)
		return "window needs a function and its calls (1 to the sequences length)";
	struct dump_window *grown = realloc(r->sec.windows, (r->sec.window_count + 1) * sizeof *grown);
	if (!grown)
		return "out of memory";
	r->sec.windows = grown;
	struct dump_window *w = &grown[r->sec.window_count];
	*w = (struct dump_window){ .fn = (enum base_function)fn, .count = 0, .calls = malloc(count * sizeof *w->calls) };
	if (!w->calls)
		return "out of memory";
	r->sec.window_count++;
	r->window_left = (unsigned)count;
	return NULL;
}

/* "seq SIZE DST SRC DISTANCE": the distance signed, the offsets below 4096. */
static const char *read_seq(struct reading *r, const char *rest)
{
	static const char wrong[] = "seq needs size, destination and source mod 4096, and a signed distance";
	uint64_t v[3];
	const char *last = strrchr(rest, ' ');
	if (!r->window_left)
		return "seq outside a window, or more than its window says";
	char head[80];
	if (!last || (size_t)(last - rest) >= sizeof head)
		return wrong;
	memcpy(head, rest, (size_t)(last - rest));
	head[last - rest] = '\0';
	const char *digits = last + 1 + (last[1] == '-');
	uint64_t magnitude;
	if (parse_numbers(head, v, 3) != 3 || v[1] >= 4096 || v[2] >= 4096 ||
	    !parse_u64(&digits, &magnitude) || *digits != '\0' || magnitude > INT64_MAX)
		return wrong;
	struct dump_window *w = &r->sec.windows[r->sec.window_count - 1];
	w->calls[w->count++] = (struct seq_call){ .size = v[0], .dst_off = (uint16_t)v[1], .src_off = (uint16_t)v[2],
						  .distance = last[1] == '-' ? -(int64_t)magnitude : (int64_t)magnitude };
	r->window_left--;
	return NULL;
}

/* "ab A B block": the settings of an in-process A/B and its block's calls. */
static const char *read_ab(struct reading *r, const char *rest)
{
	struct dump_ab *a = &r->sec.ab;
	char words[3][256];
	uint64_t block;
	const char *at = rest;
	if (a->processes)
		return "a second ab line";
	for (int i = 0; i < 2; i++) {
		const char *space = strchr(at, ' ');
		if (!space || space == at || (size_t)(space - at) >= sizeof words[i])
			return "ab needs setting A, setting B and the calls of a block";
		memcpy(words[i], at, (size_t)(space - at));
		words[i][space - at] = '\0';
		at = space + 1;
	}
	if (parse_numbers(at, &block, 1) != 1 || block == 0)
		return "ab needs setting A, setting B and the calls of a block (from 1)";
	a->processes = 1;
	strcpy(a->setting[0], words[0]);
	strcpy(a->setting[1], words[1]);
	a->block_calls = block;
	return NULL;
}

/* "ab_processes N", in a merged section after its ab line. */
static const char *read_ab_processes(struct reading *r, const char *rest)
{
	uint64_t v;
	if (!r->sec.ab.processes)
		return "ab_processes before the ab line";
	if (parse_numbers(rest, &v, 1) != 1 || v == 0 || v > UINT32_MAX)
		return "expected a count from 1";
	r->sec.ab.processes = (unsigned)v;
	return NULL;
}

/* The function a record names first, and where its numbers start; -1 if none. */
static int leading_function(const char *rest, const char **numbers)
{
	const char *space = strchr(rest, ' ');
	if (!space)
		return -1;
	*numbers = space + 1;
	return function_named(rest, (size_t)(space - rest));
}

/* "ab_dropped FN a b" */
static const char *read_ab_dropped(struct reading *r, const char *rest)
{
	const char *numbers;
	uint64_t v[2];
	int fn = leading_function(rest, &numbers);
	if (!r->sec.ab.processes)
		return "ab_dropped before the ab line";
	if (fn < 0 || parse_numbers(numbers, v, 2) != 2)
		return "ab_dropped needs a function and two counts";
	for (int arm = 0; arm < 2; arm++)
		if (!add_checked(&r->sec.ab.dropped[fn][arm], v[arm]))
			return "counter overflow";
	return NULL;
}

/* "ab_pair" and for each function and size class A's calls and ns, B's calls and ns. */
static const char *read_ab_pair(struct reading *r, const char *rest)
{
	struct dump_ab *a = &r->sec.ab;
	uint64_t v[AB_PAIR_NUMBERS + 1];
	if (!a->processes)
		return "ab_pair before the ab line";
	if (parse_numbers(rest, v, AB_PAIR_NUMBERS + 1) != AB_PAIR_NUMBERS)
		return "ab_pair needs four numbers a function and size class";
	if (a->pair_count == HIST_AB_PAIRS_MAX)
		return "more ab_pair records than a section holds";
	if (a->pair_count % 1024 == 0) {
		struct ab_pair *grown = realloc(a->pairs, (a->pair_count + 1024) * sizeof *grown);
		if (!grown)
			return "out of memory";
		a->pairs = grown;
	}
	struct ab_pair *p = &a->pairs[a->pair_count++];
	const uint64_t *at = v;
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (unsigned k = 0; k < AB_PAIR_CLASSES; k++)
			for (unsigned arm = 0; arm < 2; arm++) {
				p->calls[arm][fn][k] = *at++;
				p->ns[arm][fn][k] = *at++;
			}
	return NULL;
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
		if (strcmp(name, "movsb") == 0 || strcmp(name, "erms") == 0) /* erms: before version 9 */
			r->sec.movsb_threshold = v;
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

const char *hist_read_record(struct reading *r, const char *line, const char *rest)
{
	if (strcmp(line, "seq") == 0)
		return read_seq(r, rest);
	if (r->window_left)
		return "a window with fewer seq lines than it says";
	if (strcmp(line, "sequences") == 0)
		return read_sequences(r, rest);
	if (strcmp(line, "window") == 0)
		return read_window(r, rest);
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
	if (strcmp(line, "ab") == 0)
		return read_ab(r, rest);
	if (strcmp(line, "ab_processes") == 0)
		return read_ab_processes(r, rest);
	if (strcmp(line, "ab_dropped") == 0)
		return read_ab_dropped(r, rest);
	if (strcmp(line, "ab_pair") == 0)
		return read_ab_pair(r, rest);
	const char *header_problem = read_header_record(r, line, rest);
	if (header_problem != not_a_header_record)
		return header_problem;
	return read_function_record(r, line, rest);
}
