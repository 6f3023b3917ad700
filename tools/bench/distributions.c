/* The call-size distributions memshim bench reads: CSV files (either format
 * of data/distributions/README.md), histogram dumps, and the built-in ones. */
#include "config.h"

#include "tools/bench/bench.h"
#include "tools/util/cli.h"

#include "tools/util/histogram_read.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* The largest size a distribution may hold: the sweep's largest too. */
#define DIST_MAX_SIZE (64ull << 20)
/* fleetbench's files are tens of KiB; anything much larger is not one of them. */
#define DIST_MAX_FILE (16u << 20)

/* ---- reading files ---- */

struct parse {
	const char *path;
	char *error;
	size_t error_size;
};

static char *read_file(const struct parse *p, size_t *length)
{
	FILE *f = fopen(p->path, "rb");
	if (!f) {
		snprintf(p->error, p->error_size, "cannot open %s: %s", p->path, strerror(errno));
		return NULL;
	}
	char *text = malloc(DIST_MAX_FILE + 1);
	size_t n = text ? fread(text, 1, DIST_MAX_FILE + 1, f) : 0;
	fclose(f);
	if (!text || n > DIST_MAX_FILE) {
		snprintf(p->error, p->error_size, "%s is not a distribution (larger than %u MiB)", p->path,
			 DIST_MAX_FILE >> 20);
		free(text);
		return NULL;
	}
	text[n] = '\0';
	*length = n;
	return text;
}

/* Parses a non-negative real at *s; false if there is none. */
static bool parse_real(const char **s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(*s, &end);
	if (end == *s || errno == ERANGE || !(v >= 0) || v > 1e300)
		return false;
	*s = end;
	*out = v;
	return true;
}

static bool parse_key(const char **s, unsigned long long *out)
{
	if (**s < '0' || **s > '9')
		return false;
	char *end;
	errno = 0;
	*out = strtoull(*s, &end, 10);
	if (errno == ERANGE)
		return false;
	*s = end;
	return true;
}

/* Parses one line of `key:value` pairs into table (room for `room`). */
static bool parse_pairs(const struct parse *p, const char **s, unsigned line, struct size_prob *table,
			size_t room, size_t *count)
{
	*count = 0;
	while (**s && **s != '\n') {
		unsigned long long key;
		double value;
		bool ok = parse_key(s, &key) && *(*s)++ == ':' && parse_real(s, &value) &&
			  key <= DIST_MAX_SIZE && *count < room;
		if (ok)
			table[(*count)++] = (struct size_prob){ (size_t)key, value };
		if (ok && (**s == ',' || **s == '\r'))
			(*s)++;
		else if (ok && **s && **s != '\n')
			ok = false; /* a stray character */
		if (!ok) {
			snprintf(p->error, p->error_size, "%s line %u: expected key:probability pairs, each key at most 64M",
				 p->path, line);
			return false;
		}
	}
	if (**s == '\n')
		(*s)++;
	return true;
}

/* Line 2: 0 (no overlap) and 1 (overlap); any other key is an error, so
 * that a file of one size per line is not read as sizes, overlap and
 * alignment. */
static bool set_overlap(const struct parse *p, struct size_dist *d, const struct size_prob *pairs, size_t n)
{
	double none = 0, some = 0;
	for (size_t i = 0; i < n; i++) {
		if (pairs[i].size > 1) {
			snprintf(p->error, p->error_size, "%s line 2: overlap keys are 0 and 1, not %zu", p->path,
				 pairs[i].size);
			return false;
		}
		*(pairs[i].size ? &some : &none) += pairs[i].probability;
	}
	d->overlap = none + some > 0 ? some / (none + some) : 0;
	return true;
}

/* Line 3: alignments, powers of two up to 64 (what a 64-byte offset can
 * honour; fleetbench's go to 64), eight at most. */
static bool set_alignments(const struct parse *p, struct size_dist *d, const struct size_prob *pairs, size_t n)
{
	double total = 0, running = 0;
	for (size_t i = 0; i < n; i++) {
		size_t a = pairs[i].size;
		if (a == 0 || a > 64 || (a & (a - 1)) || i >= 8) {
			snprintf(p->error, p->error_size,
				 "%s line 3: alignment keys are powers of two up to 64, at most 8 of them (%zu)",
				 p->path, a);
			return false;
		}
		total += pairs[i].probability;
	}
	for (size_t i = 0; i < n && total > 0; i++) {
		size_t a = pairs[i].size;
		running += pairs[i].probability / total;
		d->align[d->align_count] = (unsigned)a;
		d->align_cumulative[d->align_count++] = running;
	}
	if (d->align_count)
		d->align_cumulative[d->align_count - 1] = 1.0;
	return true;
}

static struct size_dist *parse_fleetbench(const struct parse *p, const char *text, size_t length,
					  const char *name)
{
	/* Every pair takes at least 4 characters ("0:1,"), so this bounds the table. */
	size_t room = length / 4 + 1;
	struct size_prob *pairs = malloc(room * sizeof *pairs);
	if (!pairs) {
		snprintf(p->error, p->error_size, "out of memory");
		return NULL;
	}
	size_t n;
	struct size_dist *d = NULL;
	const char *s = text;
	if (parse_pairs(p, &s, 1, pairs, room, &n))
		d = size_dist_from_table(name, pairs, n, p->error, p->error_size);
	if (d && *s && parse_pairs(p, &s, 2, pairs, room, &n))
		set_overlap(p, d, pairs, n);
	if (d && *s && !*p->error && parse_pairs(p, &s, 3, pairs, room, &n))
		set_alignments(p, d, pairs, n);
	if (d && !*p->error && s[strspn(s, " \t\r\n")])
		snprintf(p->error, p->error_size, "%s: more than three lines (sizes, overlap, alignment)", p->path);
	if (d && *p->error) { /* a later line was malformed */
		size_dist_free(d);
		d = NULL;
	}
	free(pairs);
	return d;
}

static struct size_dist *parse_one_line(const struct parse *p, const char *text, size_t length,
					const char *name)
{
	size_t room = length / 2 + 1; /* "0," at least per value */
	struct size_prob *table = malloc(room * sizeof *table);
	if (!table) {
		snprintf(p->error, p->error_size, "out of memory");
		return NULL;
	}
	size_t n = 0;
	const char *s = text;
	bool ok = true;
	while (ok && *s && *s != '\n' && *s != '\r') {
		double w;
		ok = n < room && n <= DIST_MAX_SIZE && parse_real(&s, &w);
		if (ok) {
			table[n] = (struct size_prob){ n, w };
			n++;
		}
		if (ok && *s == ',')
			s++;
		else if (ok && *s && *s != '\n' && *s != '\r')
			ok = false;
	}
	struct size_dist *d = NULL;
	if (!ok)
		snprintf(p->error, p->error_size, "%s: expected comma-separated non-negative numbers (value i: weight of size i), near byte %zu",
			 p->path, (size_t)(s - text));
	else
		d = size_dist_from_table(name, table, n, p->error, p->error_size);
	free(table);
	return d;
}

/* "dir/Memcpy_Fleet.csv" -> "Memcpy_Fleet" */
static void name_of(const char *path, char *name, size_t size)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t len = strcspn(base, ".");
	snprintf(name, size, "%.*s", (int)(len ? len : strlen(base)), base);
}

struct size_dist *size_dist_load(const char *path, char *error, size_t error_size)
{
	struct parse p = { path, error, error_size };
	error[0] = '\0';
	size_t length;
	char *text = read_file(&p, &length);
	if (!text)
		return NULL;
	char name[64];
	name_of(path, name, sizeof name);
	size_t first_line = strcspn(text, "\n");
	struct size_dist *d = memchr(text, ':', first_line) ? parse_fleetbench(&p, text, length, name)
							    : parse_one_line(&p, text, length, name);
	if (!d && !error[0])
		snprintf(error, error_size, "%s is not a distribution", path);
	else if (!d && !strstr(error, path)) {
		char reason[200];
		snprintf(reason, sizeof reason, "%s", error);
		snprintf(error, error_size, "%s %s", path, reason);
	}
	free(text);
	return d;
}

/* ---- histogram dumps ---- */

int size_dist_is_dump(const char *path)
{
	char head[sizeof HIST_FORMAT_NAME] = "";
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(head, 1, sizeof head - 1, f) : 0;
	if (f)
		fclose(f);
	head[n] = '\0';
	return strcmp(head, HIST_FORMAT_NAME) == 0;
}

static struct size_dist *dist_of_function(const struct function_histogram *h, const char *name, int fn,
					  char *error, size_t error_size)
{
	struct size_prob table[HIST_BUCKETS];
	size_t n = 0;
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		if (h->calls[b] && h->bytes[b] / h->calls[b] <= DIST_MAX_SIZE)
			table[n++] = (struct size_prob){ (size_t)(h->bytes[b] / h->calls[b]), (double)h->calls[b] };
	struct size_dist *d = n ? size_dist_from_table(name, table, n, error, error_size) : NULL;
	if (d)
		d->function = fn;
	return d;
}

unsigned size_dist_load_dump(const char *path, struct size_dist **out, char *error, size_t error_size)
{
	static struct dump dump;
	char why[300], name[64], base[48];
	hist_dump_init(&dump);
	if (!hist_read_file(path, &dump, why, sizeof why)) {
		snprintf(error, error_size, "%s: %s", path, why);
		return 0;
	}
	name_of(path, base, sizeof base);
	unsigned count = 0;
	for (int fn = 0; fn < FN_COUNT; fn++) {
		snprintf(name, sizeof name, "%s:%s", base_function_names[fn], base);
		struct size_dist *d = dist_of_function(&dump.hist.fn[fn], name, fn, error, error_size);
		if (d)
			out[count++] = d;
	}
	hist_dump_free(&dump);
	if (!count)
		snprintf(error, error_size, "%s: the dump holds no calls", path);
	return count;
}

/* ---- where the built-in ones are ---- */

const char *bench_distribution_dir(void)
{
	/* build tree: tools/memshim and data/; installed: bin/ and share/memshim/ */
	return cli_locate("MEMSHIM_DISTRIBUTIONS", "data/distributions", "share/memshim/distributions",
	                  MEMSHIM_PKGDATADIR "/distributions");
}

/* ---- distributions ---- */

/* A file that cannot be read fails the command (1), as in every command; no usage error. */
static int unreadable(const char *error)
{
	fprintf(stderr, "memshim bench: --distribution: %s\n", error);
	return 1;
}

int bench_load_distributions(const struct bench_options *o, struct distributions *d)
{
	char error[400];
	d->explicit = true;
	for (unsigned i = 0; i < o->distribution_count; i++) {
		if (size_dist_is_dump(o->distributions[i])) {
			unsigned n = size_dist_load_dump(o->distributions[i], d->list + d->count, error, sizeof error);
			if (!n)
				return unreadable(error);
			d->count += n;
			continue;
		}
		d->list[d->count] = size_dist_load(o->distributions[i], error, sizeof error);
		if (!d->list[d->count])
			return unreadable(error);
		d->count++;
	}
	return 0;
}

/* The built-in ones: fleet-wide for each function (--quick), else also each
 * workload and a uniform 384..4096 B.  Missing ones are only a warning. */
void bench_load_builtin_distributions(bool quick, struct distributions *d)
{
	static const char *const workloads[] = { "Fleet", "0", "1", "2", "3", "4", "5", "6", "7", "8" };
	static const char *const prefixes[] = { "Memcpy", "Memmove", "Memset" };
	const char *dir = bench_distribution_dir();
	if (!dir) {
		fprintf(stderr, "memshim bench: no built-in distributions found (set MEMSHIM_DISTRIBUTIONS)\n");
		return;
	}
	char path[4096], error[400];
	for (unsigned w = 0; w < (quick ? 1u : 10u); w++)
		for (unsigned f = 0; f < 3; f++) {
			snprintf(path, sizeof path, "%s/fleetbench/%s_%s.csv", dir, prefixes[f], workloads[w]);
			if ((d->list[d->count] = size_dist_load(path, error, sizeof error)))
				d->count++;
			else
				fprintf(stderr, "memshim bench: skipping a built-in distribution: %s\n", error);
		}
	snprintf(path, sizeof path, "%s/llvm-libc/Uniform384To4096.csv", dir);
	if (!quick && (d->list[d->count] = size_dist_load(path, error, sizeof error)))
		d->count++;
}

void bench_free_distributions(struct distributions *d)
{
	for (unsigned i = 0; i < d->count; i++)
		size_dist_free(d->list[i]);
}
