#include "dump/reader/load.h"

#include "dump/reader/read.h"
#include "tools/util/sort.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool add_path(struct dump_inputs *in, const char *dir, const char *name)
{
	char **grown = realloc(in->paths, (in->count + 1) * sizeof *grown);
	if (!grown)
		return false;
	in->paths = grown;
	size_t size = (dir ? strlen(dir) + 1 : 0) + strlen(name) + 1;
	char *path = malloc(size);
	if (!path)
		return false;
	snprintf(path, size, "%s%s%s", dir ? dir : "", dir ? "/" : "", name);
	in->paths[in->count++] = path;
	return true;
}

/* A directory entry that may be a dump: not hidden, not a dump being written. */
static int is_candidate(const struct dirent *e)
{
	size_t len = strlen(e->d_name);
	return e->d_name[0] != '.' && !(len > 4 && strcmp(e->d_name + len - 4, ".tmp") == 0);
}

/* The regular files of dir, by name (versionsort: x.9 before x.10). */
static bool add_directory(struct dump_inputs *in, const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, is_candidate, versionsort);
	if (n < 0)
		return false;
	bool ok = true;
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
		if (ok && stat(path, &st) == 0 && S_ISREG(st.st_mode))
			ok = add_path(in, dir, names[i]->d_name);
		free(names[i]);
	}
	free(names);
	return ok;
}

/* A directory memshim record made stands for its merged dump, or, if
 * record ended before it merged (killed), for the dumps in its processes/;
 * never both, which would count the calls twice. */
static bool add_recording(struct dump_inputs *in, const char *dir, bool *is_recording)
{
	char path[4096];
	struct stat st;
	snprintf(path, sizeof path, "%s/merged", dir);
	*is_recording = true;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return add_path(in, dir, "merged");
	snprintf(path, sizeof path, "%s/processes", dir);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return add_directory(in, path);
	*is_recording = false;
	return true;
}

bool dump_inputs_expand(const char *command, char *const *args, size_t n, struct dump_inputs *in,
                        unsigned *bad)
{
	in->paths = NULL;
	in->count = 0;
	in->read = NULL;
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		bool ok;
		if (stat(args[i], &st) != 0 || !S_ISDIR(st.st_mode))
			ok = add_path(in, NULL, args[i]); /* the reader names what is wrong with it */
		else {
			size_t before = in->count;
			bool recording;
			ok = add_recording(in, args[i], &recording);
			if (ok && !recording)
				ok = add_directory(in, args[i]);
			if ((!ok && errno != ENOMEM) || (ok && in->count == before)) {
				if (command)
					fprintf(stderr, "memshim %s: %s: %s; left out\n", command, args[i],
					        ok ? "a directory with no dumps" : strerror(errno));
				++*bad;
				ok = true;
			}
		}
		if (!ok)
			return false;
	}
	return true;
}

void dump_inputs_free(struct dump_inputs *in)
{
	for (size_t i = 0; i < in->count; i++)
		free(in->paths[i]);
	free(in->paths);
	free(in->read);
	in->paths = NULL;
	in->read = NULL;
	in->count = 0;
}

unsigned dump_load_inputs(const char *command, struct dump_inputs *in, struct dump *d)
{
	unsigned bad = 0;
	free(in->read);
	in->read = calloc(in->count ? in->count : 1, sizeof *in->read);
	for (size_t i = 0; i < in->count; i++) {
		char why[400];
		bool ok = hist_read_file(in->paths[i], d, why, sizeof why);
		if (!ok) {
			fprintf(stderr, "memshim %s: %s: %s; left out\n", command, in->paths[i], why);
			bad++;
		}
		if (in->read)
			in->read[i] = ok;
	}
	return bad;
}

int dump_load(const char *command, char *const *args, size_t n, struct dump *d)
{
	struct dump_inputs in;
	unsigned bad = 0;
	if (!dump_inputs_expand(command, args, n, &in, &bad)) {
		dump_inputs_free(&in);
		fprintf(stderr, "memshim %s: out of memory\n", command);
		return -1;
	}
	bad += dump_load_inputs(command, &in, d);
	dump_inputs_free(&in);
	return (int)bad;
}

/* Sites with the same function and frames are one site. */
static int site_order(const void *a, const void *b)
{
	const struct dump_site *x = a, *y = b;
	return x->fn != y->fn ? (x->fn < y->fn ? -1 : 1) : strcmp(x->frames, y->frames);
}

/* a += b, held at UINT64_MAX; whether it was. */
static bool add_saturated(uint64_t *a, uint64_t b)
{
	if (!__builtin_add_overflow(*a, b, a))
		return false;
	*a = UINT64_MAX;
	return true;
}

/* Sorting first keeps this n log n: a fleet of dumps holds many sites.
 * Whether a sum had to be held at 2^64-1. */
static bool merge_sites(struct dump_site *sites, size_t *count)
{
	bool saturated = false;
	sort_items(sites, *count, sizeof *sites, site_order);
	size_t kept = 0;
	for (size_t i = 0; i < *count; i++) {
		struct dump_site *c = &sites[i];
		if (kept && site_order(&sites[kept - 1], c) == 0) {
			saturated |= add_saturated(&sites[kept - 1].count, c->count);
			saturated |= add_saturated(&sites[kept - 1].amount, c->amount);
			free(c->frames);
		} else {
			sites[kept++] = *c;
		}
	}
	*count = kept;
	return saturated;
}

bool dump_merge_sites(struct dump *d)
{
	bool saturated = merge_sites(d->callsites, &d->callsite_count);
	saturated |= merge_sites(d->cpu_sites, &d->cpu_site_count);
	saturated |= merge_sites(d->time_sites, &d->time_site_count);
	for (size_t i = 0; i < d->program_count; i++)
		saturated |= dump_merge_sites(d->programs[i].d);
	return saturated;
}

void dump_merge_sites_said(const char *command, struct dump *d)
{
	if (dump_merge_sites(d))
		fprintf(stderr, "memshim %s: a call site's counts passed 2^64-1 when added up; shown as "
		                "18446744073709551615 (at least)\n", command);
}
