/* Reading dumps, for the tools: every line is checked, and a file that is
 * truncated, of another version, or malformed is refused whole with a
 * reason, so a merge never silently counts half a file. */
#include "shim/histogram_format.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hist_dump_init(struct dump *d)
{
	memset(d, 0, sizeof *d);
}

void hist_dump_free(struct dump *d)
{
	for (size_t i = 0; i < d->callsite_count; i++)
		free(d->callsites[i].frames);
	free(d->callsites);
	hist_dump_init(d);
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

/* The state of reading one file. */
struct reading {
	struct histogram hist;
	int function;          /* the "function" record in force, or -1 */
	bool header_seen, end_seen;
	char variant[FN_COUNT][32];
	uint64_t thresholds[2];
	struct dump_callsite *callsites;
	size_t callsite_count;
	const char *error;
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
	struct function_histogram *f = &r->hist.fn[r->function];
	if (!add_checked(&f->calls[b], v[2]) || !add_checked(&f->bytes[b], v[3]))
		return "counter overflow";
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
	struct dump_callsite *grown = realloc(r->callsites, (r->callsite_count + 1) * sizeof *grown);
	if (!grown)
		return "out of memory";
	r->callsites = grown;
	grown[r->callsite_count++] = (struct dump_callsite){ (enum base_function)fn, calls, bytes, strdup(end + 1) };
	return NULL;
}

/* Records that only make sense after a "function" line. */
static const char *read_function_record(struct reading *r, const char *key, const char *rest)
{
	uint64_t v[4];
	int count = parse_numbers(rest, v, 4);
	if (r->function < 0)
		return "counter before any function line";
	if (count < 0)
		return "expected numbers";
	struct function_histogram *f = &r->hist.fn[r->function];
	if (strcmp(key, "bucket") == 0)
		return read_bucket(r, v, count);
	if (strcmp(key, "dst_mod64") == 0)
		return read_mod64(f->dst_mod64, v, count);
	if (strcmp(key, "delta_mod64") == 0)
		return read_mod64(f->delta_mod64, v, count);
	if (strcmp(key, "alias4k") == 0)
		return read_pair(&f->alias_calls, &f->alias_bytes, v, count);
	if (strcmp(key, "overlap") == 0)
		return read_pair(&f->overlap_dst_before, &f->overlap_dst_after, v, count);
	if (strcmp(key, "zero") == 0)
		return read_pair(&f->zero_calls, &f->zero_bytes, v, count);
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
	if (strcmp(key, "pid") == 0 || strcmp(key, "program") == 0 || strcmp(key, "reason") == 0)
		return *rest ? NULL : "expected a value";
	if (strcmp(key, "variant") == 0) {
		char name[16], variant[32];
		if (sscanf(rest, "%15s %31s", name, variant) != 2 || function_named(name, strlen(name)) < 0)
			return "variant needs a function and a name";
		strcpy(r->variant[function_named(name, strlen(name))], variant);
		return NULL;
	}
	if (strcmp(key, "threshold") == 0) {
		char name[16];
		uint64_t v;
		if (!name_and_number(rest, name, sizeof name, &v))
			return "threshold needs a name and a number";
		if (strcmp(name, "erms") == 0 || strcmp(name, "stosb") == 0)
			r->thresholds[name[0] == 's'] = v;
		return NULL;
	}
	if (strcmp(key, "entry") == 0) {
		char name[32];
		uint64_t v;
		if (!name_and_number(rest, name, sizeof name, &v))
			return "entry needs a name and a count";
		for (int e = 0; e < E_COUNT; e++)
			if (strcmp(name, entry_point_names[e]) == 0)
				return add_checked(&r->hist.entry_calls[e], v) ? NULL : "counter overflow";
		return "unknown entry point";
	}
	return not_a_header_record;
}

static const char *read_line(struct reading *r, char *line)
{
	if (r->end_seen)
		return "text after the end line";
	char *space = strchr(line, ' ');
	const char *rest = space ? space + 1 : "";
	if (space)
		*space = '\0';
	if (!r->header_seen) {
		char *end;
		long version = strcmp(line, HIST_FORMAT_NAME) == 0 && *rest >= '0' && *rest <= '9'
		                       ? strtol(rest, &end, 10) : -1;
		if (version < 0)
			return "not a memshim histogram (no memshim-histogram header)";
		if (version != HIST_FORMAT_VERSION || *end != '\0')
			return "unsupported format version (this memshim reads version 1)";
		r->header_seen = true;
		return NULL;
	}
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
	const char *header_problem = read_header_record(r, line, rest);
	if (header_problem != not_a_header_record)
		return header_problem;
	return read_function_record(r, line, rest);
}

/* Whether adding r to d overflows any counter, or any function's calls or
 * bytes summed over its buckets (the totals every report shows). */
static bool merge_overflows(const struct dump *d, const struct reading *r)
{
	const uint64_t *to = (const uint64_t *)&d->hist;
	const uint64_t *from = (const uint64_t *)&r->hist;
	uint64_t sum;
	for (size_t i = 0; i < sizeof d->hist / sizeof(uint64_t); i++)
		if (__builtin_add_overflow(to[i], from[i], &sum))
			return true;
	for (int fn = 0; fn < FN_COUNT; fn++) {
		uint64_t calls = 0, bytes = 0;
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			if (__builtin_add_overflow(calls, d->hist.fn[fn].calls[b] + r->hist.fn[fn].calls[b], &calls) ||
			    __builtin_add_overflow(bytes, d->hist.fn[fn].bytes[b] + r->hist.fn[fn].bytes[b], &bytes))
				return true;
	}
	return false;
}

static void merge_into(struct dump *d, struct reading *r)
{
	uint64_t *to = (uint64_t *)&d->hist;
	const uint64_t *from = (const uint64_t *)&r->hist;
	for (size_t i = 0; i < sizeof d->hist / sizeof(uint64_t); i++)
		to[i] += from[i];
	for (int fn = 0; fn < FN_COUNT; fn++) {
		if (d->files > 0 && strcmp(d->variant[fn], r->variant[fn]) != 0)
			strcpy(d->variant[fn], "mixed");
		else if (d->files == 0)
			strcpy(d->variant[fn], r->variant[fn]);
	}
	d->erms_threshold = r->thresholds[0];
	d->stosb_threshold = r->thresholds[1];
	struct dump_callsite *grown =
		realloc(d->callsites, (d->callsite_count + r->callsite_count + 1) * sizeof *grown);
	if (grown) {
		if (r->callsite_count) /* r->callsites is NULL when there are none */
			memcpy(grown + d->callsite_count, r->callsites, r->callsite_count * sizeof *grown);
		d->callsites = grown;
		d->callsite_count += r->callsite_count;
	}
	free(r->callsites);
	d->files++;
}

bool hist_read_file(const char *path, struct dump *d, char *why, size_t why_size)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(why, why_size, "%s", strerror(errno));
		return false;
	}
	struct reading *r = calloc(1, sizeof *r);
	if (!r) {
		fclose(f);
		snprintf(why, why_size, "out of memory");
		return false;
	}
	r->function = -1;
	char line[8192];
	unsigned number = 0;
	const char *problem = NULL;
	while (!problem && fgets(line, sizeof line, f)) {
		number++;
		size_t len = strlen(line);
		if (len == 0 || line[len - 1] != '\n') {
			problem = feof(f) ? "truncated: the last line is incomplete" : "line too long";
			break;
		}
		line[len - 1] = '\0';
		problem = read_line(r, line);
	}
	if (!problem && ferror(f))
		problem = strerror(errno);
	fclose(f);
	if (!problem && number == 0)
		problem = "empty file";
	else if (!problem && !r->end_seen)
		problem = "truncated: no end line";
	else if (!problem && merge_overflows(d, r)) {
		problem = d->files ? "counts overflow when added to the files before"
		                   : "counts overflow when summed over a function's buckets";
		number = 0;
	}
	if (problem) {
		snprintf(why, why_size, number ? "line %u: %s" : "%.0u%s", number, problem);
		for (size_t i = 0; i < r->callsite_count; i++)
			free(r->callsites[i].frames);
		free(r->callsites);
		free(r);
		return false;
	}
	merge_into(d, r);
	free(r);
	return true;
}
