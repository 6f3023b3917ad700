/* Call-size distribution files (either format of data/distributions/README.md)
 * and where the built-in ones are: bench's dist case and the calibration's
 * fleet cells read them. */
#include "config.h"

#include "tools/measure/dist_file.h"
#include "tools/util/cli.h"
#include "tools/util/parse_number.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

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

/* A probability at *s: a real without a sign, small enough that a
 * line's sum stays finite. */
static bool parse_weight(const char **s, double *out)
{
	return parse_real(s, out) && *out <= 1e300;
}

/* Parses one line of `key:value` pairs into table (room for `room`). */
static bool parse_pairs(const struct parse *p, const char **s, unsigned line, struct size_prob *table,
			size_t room, size_t *count)
{
	*count = 0;
	while (**s && **s != '\n') {
		uint64_t key;
		double value;
		bool ok = parse_u64(s, &key) && *(*s)++ == ':' && parse_weight(s, &value) &&
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
		ok = n < room && n <= DIST_MAX_SIZE && parse_weight(&s, &w);
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

void size_dist_name_of(const char *path, char *name, size_t size)
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
	size_dist_name_of(path, name, sizeof name);
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

/* ---- where the built-in ones are ---- */

const char *measure_distribution_dir(void)
{
	/* build tree: tools/memshim and data/; installed: bin/ and share/memshim/ */
	return cli_locate("MEMSHIM_DISTRIBUTIONS", "data/distributions", "share/memshim/distributions",
	                  MEMSHIM_PKGDATADIR "/distributions");
}

const char *const fleet_distribution_names[FN_COUNT] = { "Memcpy_Fleet", "Memmove_Fleet", "Memset_Fleet" };

struct size_dist *size_dist_load_fleet(enum base_function fn, char *error, size_t error_size)
{
	const char *dir = measure_distribution_dir();
	char path[4096];
	if (!dir) {
		snprintf(error, error_size, "no built-in distributions found (set MEMSHIM_DISTRIBUTIONS)");
		return NULL;
	}
	snprintf(path, sizeof path, "%s/fleetbench/%s.csv", dir, fleet_distribution_names[fn]);
	return size_dist_load(path, error, error_size);
}
