/* Reading dumps, for the tools: every line is checked, and a file that is
 * truncated, of another version, or malformed is refused whole with a
 * reason, so a merge never silently counts half a file. */
#include "dump/reader/read.h"
#include "dump/reader/add.h"
#include "dump/reader/records.h"

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


void hist_dump_free(struct dump *d)
{
	free_sites(d->callsites, d->callsite_count);
	free(d->callsites);
	free_sites(d->cpu_sites, d->cpu_site_count);
	free(d->cpu_sites);
	free_sites(d->time_sites, d->time_site_count);
	free(d->time_sites);
	for (size_t i = 0; i < d->window_count; i++)
		free(d->windows[i].calls);
	free(d->windows);
	free(d->ab.pairs);
	for (size_t i = 0; i < d->program_count; i++) {
		hist_dump_free(d->programs[i].d);
		free(d->programs[i].d);
	}
	free(d->programs);
	const char *filter = d->program_filter;
	hist_dump_init(d);
	d->program_filter = filter;
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
		return "unsupported format version (this memshim reads versions 1 to " HIST_FORMAT_VERSION_TEXT ")";
	if (r->end_seen) {
		const char *problem = finish_section(r);
		if (problem)
			return problem;
		if (++r->section >= (r->sections ? r->sections : 1))
			return "more sections than its first says (two dumps joined into one file?)";
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
		if (r->window_left)
			return "a window with fewer seq lines than it says";
		r->end_seen = true;
		return *rest ? "text after end" : NULL;
	}
	return hist_read_record(r, line, rest);
}

/* Whether adding `from` to `to` overflows any counter, or any function's
 * calls or bytes summed over its buckets (the totals every report shows). */

static const char *finish_section(struct reading *r)
{
	const char *problem = NULL;
	const char *filter = r->file->program_filter;
	if (filter && strcmp(filter, r->program) != 0)
		problem = NULL;
	else if (hist_add_overflows(r->file, &r->sec))
		problem = r->section ? "counts overflow when added to the sections before"
		                     : "counts overflow when summed over a function's buckets";
	else if (!hist_add_program(r->file, &r->sec, r->program))
		problem = "out of memory";
	hist_dump_free(&r->sec);
	return problem;
}

/* Adds a whole file, read into `file`, to d. */
static bool merge_file(struct dump *d, const struct dump *file)
{
	for (size_t i = 0; i < file->program_count; i++)
		if (!hist_add_program(d, file->programs[i].d, file->programs[i].name))
			return false;
	d->files++;
	return true;
}

/* What a file whose first line is no dump header seems to be instead,
 * from the first len bytes of it (fgets stops at a NUL byte for strlen);
 * NULL for text, which start_section names. */
static const char *foreign_format(const char *line, size_t len)
{
	static const struct {
		const char *magic;
		size_t size;
		const char *what;
	} known[] = {
		{ "\x7f" "ELF", 4, "not a memshim dump: it looks like an ELF file" },
		{ "\x1f\x8b", 2, "not a memshim dump: it looks like a gzip file" },
		{ "\x28\xb5\x2f\xfd", 4, "not a memshim dump: it looks like a zstd file" },
		{ "\xfd" "7zXZ", 5, "not a memshim dump: it looks like an xz file" },
	};
	if (strncmp(line, HIST_FORMAT_NAME " ", sizeof HIST_FORMAT_NAME) == 0)
		return NULL;
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (len >= known[i].size && memcmp(line, known[i].magic, known[i].size) == 0)
			return known[i].what;
	bool binary = len == 0; /* its first byte is a NUL */
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)line[i];
		binary |= (c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7f;
	}
	return binary ? "not a memshim dump: it looks like binary data" : NULL;
}

/* Reads every line of f into r, each into `line` (HIST_LINE_MAX + 2
 * bytes: the text, its newline, the NUL); the problem, or NULL.  *number:
 * the line. */
static const char *read_lines(FILE *f, struct reading *r, char *line, unsigned *number)
{
	const char *problem = NULL;
	while (!problem && fgets(line, HIST_LINE_MAX + 2, f)) {
		++*number;
		size_t len = strlen(line);
		if (*number == 1 && (problem = foreign_format(line, len)) != NULL) {
			*number = 0; /* about the whole file */
			return problem;
		}
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

/* Whether the problem is a cut: the file ends before its end. */
static bool cut_short(const char *problem)
{
	return problem && strncmp(problem, "truncated", 9) == 0;
}

/* A file cut short: the section it was cut in, with its complete lines,
 * added as if it had ended; the problem, or NULL. */
static const char *keep_cut(struct reading *r)
{
	if (!r->header_seen || r->end_seen) /* cut between sections: those before are in */
		return NULL;
	r->end_seen = true;
	return finish_section(r);
}

static bool read_file(const char *path, struct dump *d, bool keep, char *why, size_t why_size)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(why, why_size, "%s", strerror(errno));
		return false;
	}
	struct reading *r = calloc(1, sizeof *r);
	struct dump *file = calloc(1, sizeof *file);
	char *line = malloc(HIST_LINE_MAX + 2);
	if (!r || !file || !line) {
		fclose(f);
		free(r);
		free(file);
		free(line);
		snprintf(why, why_size, "out of memory");
		return false;
	}
	file->program_filter = d->program_filter;
	r->file = file;
	unsigned number = 0;
	const char *problem = read_lines(f, r, line, &number);
	const char *cut = keep && cut_short(problem) && r->header_seen ? problem : NULL; /* a cut header: no dump */
	if (cut)
		problem = keep_cut(r);
	free(line);
	fclose(f);
	if (!problem && hist_add_overflows(d, file))
		problem = d->files ? "counts overflow when added to the files before"
		                   : "counts overflow when summed over a function's buckets";
	if (!problem && !merge_file(d, file))
		problem = "out of memory";
	if (problem)
		snprintf(why, why_size, number ? "line %u: %s" : "%.0u%s", number, problem);
	else if (cut)
		snprintf(why, why_size, number ? "line %u: %s; its complete lines are read"
		                               : "%.0u%s; its complete lines are read", number, cut);
	else
		why[0] = '\0';
	hist_dump_free(&r->sec);
	hist_dump_free(file);
	free(file);
	free(r);
	return !problem;
}

bool hist_read_file(const char *path, struct dump *d, char *why, size_t why_size)
{
	return read_file(path, d, false, why, why_size);
}

bool hist_read_file_or_cut(const char *path, struct dump *d, char *why, size_t why_size)
{
	return read_file(path, d, true, why, why_size);
}
