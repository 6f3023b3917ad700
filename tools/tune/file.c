/* Writing and reading the calibration file (format: tools/calibrate/curves.h and
 * dispatch/calibration.h).  Written to a temporary name in the same folder,
 * flushed to disk and renamed, so a program starting meanwhile reads the
 * old file or the new, never half, and neither a crash nor Ctrl-C leaves
 * half a file under the real name. */
#include "tools/tune/tune.h"

#include "dispatch/settings.h"
#include "dispatch/calibration.h"
#include "tools/measure/progress.h"
#include "tools/util/parse_number.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Creates the folders above path (mkdir -p of its dirname). */
static void make_parents(const char *path)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", path);
	for (char *slash = strchr(dir + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(dir, 0755);
		*slash = '/';
	}
}

static void write_curve(FILE *f, const struct named_curve *n)
{
	const struct cm_curve *c = &n->curve;
	fprintf(f, "curve %s %s %u\n", base_function_names[n->fn], n->name, c->points);
	for (unsigned p = 0; p < c->points; p++) {
		fprintf(f, "%.0f", c->size[p]);
		for (unsigned r = 0; r < c->rounds; r++)
			fprintf(f, " %.6g", c->cost[p][r]);
		fputc('\n', f);
	}
}

/* The temporary file being written, for the signal handler; "" if none. */
static char temporary[4200];

static void on_stop_signal(int sig)
{
	if (temporary[0])
		unlink(temporary);
	if (progress_showing())
		(void)!write(STDERR_FILENO, "\n", 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

void calibration_guard_signals(void)
{
	struct sigaction a = { .sa_handler = on_stop_signal };
	sigemptyset(&a.sa_mask);
	sigaction(SIGINT, &a, NULL);
	sigaction(SIGTERM, &a, NULL);
}

static void write_choices(FILE *f, const struct calibration *c)
{
	for (int fn = 0; fn < FN_COUNT; fn++)
		fprintf(f, "choice %s %s %s\n", setting_keys(function_setting((enum base_function)fn))->file_key,
			c->choice[fn][0] ? c->choice[fn] : "glibc",
			c->choice_why[fn][0] ? c->choice_why[fn] : "no choice measured");
}

static void write_ratios(FILE *f, const struct calibration *c)
{
	for (unsigned i = 0; i < c->ratio_count; i++) {
		const struct band_ratios *r = &c->ratios[i];
		fprintf(f, "ratios %s %s", base_function_names[r->fn], r->variant);
		for (int b = 0; b < CHOICE_CELLS; b++)
			for (int p = 0; p < PLACE_COUNT; p++)
				fprintf(f, " %.4f", r->ratio[b][p]);
		fputc('\n', f);
	}
}

/* The file's data and the folder's new entry on disk. */
static bool sync_file(FILE *f, const char *path)
{
	bool ok = fflush(f) == 0 && fsync(fileno(f)) == 0;
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	int d = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d >= 0) {
		fsync(d); /* best effort: some file systems refuse a folder's fsync */
		close(d);
	}
	return ok;
}

bool calibration_write(const char *path, const struct calibration *c, char *why, size_t why_size)
{
	char name[sizeof temporary];
	snprintf(name, sizeof name, "%s.%ld.tmp", path, (long)getpid());
	make_parents(path);
	snprintf(temporary, sizeof temporary, "%s", name); /* before the file exists: a signal may come at once */
	FILE *f = fopen(name, "w");
	if (!f) {
		snprintf(why, why_size, "cannot write %s: %s", name, strerror(errno));
		temporary[0] = '\0';
		return false;
	}
	fprintf(f, "%s\ncpu %s %u %u\n%s %zu\n%s %zu\n%s %zu\n", CALIBRATION_FORMAT, c->vendor, c->family, c->model,
		threshold_keys(T_MOVSB)->file_key, c->movsb, threshold_keys(T_STOSB)->file_key, c->stosb,
		threshold_keys(T_NT)->file_key, c->nt);
	write_choices(f, c);
	fprintf(f, "unit %s\nclock %s\nrounds %u\n", c->unit, c->clock, c->rounds);
	write_ratios(f, c);
	for (unsigned i = 0; i < c->count; i++)
		write_curve(f, &c->curves[i]);
	fprintf(f, "end\n");
	bool ok = !ferror(f);
	ok = sync_file(f, path) && ok; /* synced and closed even after an error */
	ok &= !fclose(f);
	if (ok && rename(name, path) == 0) {
		temporary[0] = '\0';
		return true;
	}
	snprintf(why, why_size, "cannot write %s: %s", path, strerror(errno));
	unlink(name);
	temporary[0] = '\0';
	return false;
}

/* ---- reading ---- */

/* The file's text, line by line, each cut in place. */
struct reader {
	char *rest;
	unsigned line;
	char *text;
};

static bool next(struct reader *r)
{
	if (!*r->rest)
		return false;
	size_t n = strcspn(r->rest, "\n");
	r->text = r->rest;
	r->rest += n + (r->rest[n] == '\n');
	r->text[n] = '\0';
	r->line++;
	return true;
}

static int function_named(const char *name);

/* The head, as the library parses it (dispatch/calibration.h), then what
 * only tune reads: unit, clock and rounds.  *version is the file's. */
static bool read_head(struct reader *r, struct calibration *c, int *version)
{
	char *first = r->rest;
	struct calibration_head h;
	if (calibration_parse_head(first, &h)) {
		r->line = h.lines;
		return false;
	}
	*version = strcmp(first, CALIBRATION_FORMAT) == 0 ? 3 : h.has_choices ? 2 : 1;
	snprintf(c->vendor, sizeof c->vendor, "%s", h.vendor);
	c->family = h.family;
	c->model = h.model;
	c->movsb = h.values[0];
	c->stosb = h.values[1];
	c->nt = h.values[2];
	for (int fn = 0; h.has_choices && fn < FN_COUNT; fn++) {
		snprintf(c->choice[fn], sizeof c->choice[fn], "%s", h.choice[fn]);
		snprintf(c->choice_why[fn], sizeof c->choice_why[fn], "%s", h.why[fn]);
	}
	r->rest = h.rest;
	r->line = h.lines;
	uint64_t rounds = 0;
	bool ok = next(r) && sscanf(r->text, "unit %15s", c->unit) == 1 && next(r) &&
		  sscanf(r->text, "clock %255[^\n]", c->clock) == 1 && next(r) && strncmp(r->text, "rounds ", 7) == 0 &&
		  parse_u64_all(r->text + 7, CM_MAX_ROUNDS, &rounds) && rounds >= 1;
	c->rounds = (unsigned)rounds;
	return ok;
}

/* "ratios FN VARIANT" and CHOICE_CELLS x PLACE_COUNT ratios, or (a file
 * written before the fleet cells and the L3) CHOICE_CLASS_COUNT x 3, in
 * L1, L2 and cold. */
static bool read_ratios(struct reader *r, struct calibration *c)
{
	char fn_name[16];
	int at = 0;
	if (c->ratio_count == CALIBRATE_MAX_RATIOS)
		return false;
	struct band_ratios *got = &c->ratios[c->ratio_count];
	if (sscanf(r->text, "ratios %15s %23s%n", fn_name, got->variant, &at) != 2 || function_named(fn_name) < 0)
		return false;
	bool retired = !variant_named(got->variant) && strcmp(got->variant, STUB_PROBE_NAME) != 0;
	got->fn = (enum base_function)function_named(fn_name);
	const char *s = r->text + at;
	double x[CHOICE_CELLS * PLACE_COUNT];
	unsigned n = 0;
	for (; n < CHOICE_CELLS * PLACE_COUNT && *s == ' '; n++)
		if (s++, !parse_real(&s, &x[n]))
			return false;
	static const enum placement earlier[3] = { PLACE_L1, PLACE_L2, PLACE_COLD };
	bool now = n == CHOICE_CELLS * PLACE_COUNT;
	if (*s != '\0' || (!now && n != CHOICE_CLASS_COUNT * 3))
		return false;
	if (retired) /* a file from before a variant was retired (D50): its ratios go unused */
		return true;
	for (unsigned i = 0; i < n; i++) { /* the file keeps medians only */
		int b = now ? i / PLACE_COUNT : i / 3, p = now ? (int)(i % PLACE_COUNT) : earlier[i % 3];
		got->ratio[b][p] = got->low[b][p] = got->high[b][p] = x[i];
	}
	c->ratio_count++;
	return true;
}

static int function_named(const char *name)
{
	for (int fn = 0; fn < FN_COUNT; fn++)
		if (strcmp(name, base_function_names[fn]) == 0)
			return fn;
	return -1;
}

/* One grid line: the size, then one cost per round. */
static bool read_point(struct reader *r, struct cm_curve *c, unsigned p)
{
	const char *s = r->text;
	if (!parse_real(&s, &c->size[p]) || (p > 0 && c->size[p] < c->size[p - 1]))
		return false;
	for (unsigned k = 0; k < c->rounds; k++)
		if (*s++ != ' ' || !parse_real(&s, &c->cost[p][k]))
			return false;
	return *s == '\0';
}

static bool read_curve(struct reader *r, struct calibration *c)
{
	char fn_name[16], name[24];
	int at = 0;
	uint64_t points;
	if (c->count == CALIBRATE_MAX_CURVES || sscanf(r->text, "curve %15s %23s %n", fn_name, name, &at) != 2 ||
	    function_named(fn_name) < 0 || !parse_u64_all(r->text + at, CM_MAX_POINTS, &points) || points < 1)
		return false;
	struct named_curve *n = &c->curves[c->count];
	n->fn = (enum base_function)function_named(fn_name);
	snprintf(n->name, sizeof n->name, "%s", name);
	n->curve.points = (unsigned)points;
	n->curve.rounds = c->rounds;
	for (unsigned p = 0; p < points; p++)
		if (!next(r) || !read_point(r, &n->curve, p))
			return false;
	cm_curve_finish(&n->curve);
	c->count++;
	return true;
}

/* The whole file, NUL-terminated (to free); NULL and errno if it cannot be read. */
static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t size = 0, room = 1 << 16;
	char *text = f ? malloc(room) : NULL, *bigger;
	while (text) {
		size += fread(text + size, 1, room - 1 - size, f);
		if (size < room - 1 || !(bigger = realloc(text, room *= 2)))
			break;
		text = bigger;
	}
	if (text && ferror(f)) {
		free(text);
		text = NULL;
	}
	if (text)
		text[size] = '\0';
	int error = errno;
	if (f)
		fclose(f);
	errno = error;
	return text;
}

bool calibration_read(const char *path, struct calibration *c, char *why, size_t why_size)
{
	struct reader r = { .rest = read_text(path), .text = "" };
	if (!r.rest) {
		snprintf(why, why_size, "cannot read %s: %s", path, strerror(errno));
		return false;
	}
	char *text = r.rest;
	memset(c, 0, sizeof *c);
	int version;
	bool ok = read_head(&r, c, &version);
	/* version 2's ratios are by four bands: kept by nobody, skipped */
	while (ok && next(&r) && strcmp(r.text, "end") != 0)
		ok = strncmp(r.text, "ratios ", 7) != 0 ? read_curve(&r, c) : version < 3 || read_ratios(&r, c);
	ok = ok && strcmp(r.text, "end") == 0;
	if (!ok)
		snprintf(why, why_size, "%s line %u is not what a calibration file of this memshim has (run memshim tune --calibrate again)",
			 path, r.line);
	free(text);
	return ok;
}
