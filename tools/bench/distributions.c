/* The call-size distributions memshim bench reads: CSV files (either format
 * of data/distributions/README.md), histogram dumps, and the built-in ones. */
#include "config.h"

#include "tools/bench/bench.h"
#include "tools/util/cli.h"

#include "dump/reader/read.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

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
	size_dist_name_of(path, base, sizeof base);
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
	const char *dir = measure_distribution_dir();
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
