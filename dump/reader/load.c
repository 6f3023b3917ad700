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

/* What a directory given held besides dumps, said in one line, not one
 * line a file: a folder of recordings holds their plots and calibrations. */
struct skipped {
	unsigned files;
	char names[200]; /* the first ones, for the line */
};

/* Whether the file at path is not a dump: it has bytes, and they do not
 * begin with the format's name (an empty one may be a dump cut short, for
 * the reader to name). */
static bool not_a_dump(const char *path)
{
	char head[sizeof HIST_FORMAT_NAME - 1];
	FILE *f = fopen(path, "rb");
	size_t got = f ? fread(head, 1, sizeof head, f) : 0;
	if (f)
		fclose(f);
	return got > 0 && (got < sizeof head || memcmp(head, HIST_FORMAT_NAME, sizeof head) != 0);
}

static void skip(struct skipped *s, const char *name)
{
	size_t len = strlen(s->names);
	if (s->files++ < 3)
		snprintf(s->names + len, sizeof s->names - len, "%s%s", len ? ", " : "", name);
}

static bool add_recording(struct dump_inputs *in, const char *dir, bool *is_recording);

/* The dumps of dir, by name (versionsort: x.9 before x.10).  A folder
 * the user `given` may hold more: a folder in it that memshim record made
 * stands for its recording, and files that are not dumps go into *s (in a
 * recording's processes/, every file is a dump, or named as not one). */
static bool add_directory(struct dump_inputs *in, const char *dir, bool given, struct skipped *s)
{
	struct dirent **names;
	int n = scandir(dir, &names, is_candidate, versionsort);
	if (n < 0)
		return false;
	bool ok = true, recording;
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
		bool file = ok && stat(path, &st) == 0 && S_ISREG(st.st_mode);
		bool folder = ok && !file && given && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
		if (file && given && not_a_dump(path))
			skip(s, names[i]->d_name);
		else if (file)
			ok = add_path(in, dir, names[i]->d_name);
		else if (folder)
			ok = add_recording(in, path, &recording);
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
	struct skipped none = { 0 };
	snprintf(path, sizeof path, "%s/merged", dir);
	*is_recording = true;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return add_path(in, dir, "merged");
	snprintf(path, sizeof path, "%s/processes", dir);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return add_directory(in, path, false, &none);
	*is_recording = false;
	return true;
}

/* "3 files that are not dumps (a.txt, b.svg, c)" */
static const char *skipped_text(const struct skipped *s, char *out, size_t size)
{
	snprintf(out, size, "%u file%s that %s (%s%s)", s->files, s->files == 1 ? "" : "s",
	         s->files == 1 ? "is not a dump" : "are not dumps", s->names, s->files > 3 ? ", ..." : "");
	return out;
}

/* A directory given: a recording, or its dumps and the recordings in it,
 * its other files said in one line; one that gives none is left out. */
static bool expand_directory(const char *command, const char *dir, struct dump_inputs *in, unsigned *bad)
{
	size_t before = in->count;
	bool recording;
	struct skipped skipped = { 0 };
	char text[300];
	bool ok = add_recording(in, dir, &recording);
	if (ok && !recording)
		ok = add_directory(in, dir, true, &skipped);
	if (command && ok && in->count > before && skipped.files)
		fprintf(stderr, "memshim %s: %s: %s left out\n", command, dir, skipped_text(&skipped, text, sizeof text));
	if (ok && in->count > before)
		return true;
	if (!ok && errno == ENOMEM)
		return false;
	if (command && ok && skipped.files)
		fprintf(stderr, "memshim %s: %s: a directory with no dumps, %s; left out\n", command, dir,
		        skipped_text(&skipped, text, sizeof text));
	else if (command)
		fprintf(stderr, "memshim %s: %s: %s; left out\n", command, dir,
		        ok ? "a directory with no dumps" : strerror(errno));
	++*bad;
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
		else
			ok = expand_directory(command, args[i], in, bad);
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
		bool ok = hist_read_file_or_cut(in->paths[i], d, why, sizeof why);
		if (!ok || why[0]) /* left out, or read in part: said, and the status says so */
			fprintf(stderr, "memshim %s: %s: %s%s\n", command, in->paths[i], why, ok ? "" : "; left out");
		bad += !ok || why[0];
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
