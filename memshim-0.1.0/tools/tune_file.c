/* Writing and reading the calibration file (format: tools/tune.h and
 * dispatch/calibration.h).  Written to a temporary name and renamed, so a
 * program starting meanwhile reads the old file or the new, never half. */
#include "tools/tune.h"

#include "dispatch/calibration.h"

#include <errno.h>
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

bool calibration_write(const char *path, const struct calibration *c, char *why, size_t why_size)
{
	char temporary[4200];
	snprintf(temporary, sizeof temporary, "%s.%ld.tmp", path, (long)getpid());
	make_parents(path);
	FILE *f = fopen(temporary, "w");
	if (!f) {
		snprintf(why, why_size, "cannot write %s: %s", temporary, strerror(errno));
		return false;
	}
	fprintf(f, "%s\ncpu %s %u %u\nauto_movsb %zu\nauto_stosb %zu\nnt %zu\n", CALIBRATION_FORMAT, c->vendor,
		c->family, c->model, c->auto_movsb, c->auto_stosb, c->nt);
	fprintf(f, "unit %s\nclock %s\nrounds %u\n", c->unit, c->clock, c->rounds);
	for (unsigned i = 0; i < c->count; i++)
		write_curve(f, &c->curves[i]);
	fprintf(f, "end\n");
	bool ok = !ferror(f) & !fclose(f);
	if (ok && rename(temporary, path) == 0)
		return true;
	snprintf(why, why_size, "cannot write %s: %s", path, strerror(errno));
	unlink(temporary);
	return false;
}

/* ---- reading ---- */

struct reader {
	FILE *f;
	unsigned line;
	char text[8192];
};

static bool next(struct reader *r)
{
	if (!fgets(r->text, sizeof r->text, r->f))
		return false;
	r->line++;
	r->text[strcspn(r->text, "\n")] = '\0';
	return true;
}

static bool read_head(struct reader *r, struct calibration *c)
{
	char format[64];
	snprintf(format, sizeof format, "%s", CALIBRATION_FORMAT);
	return next(r) && strcmp(r->text, format) == 0 && next(r) &&
	       sscanf(r->text, "cpu %15s %u %u", c->vendor, &c->family, &c->model) == 3 && next(r) &&
	       sscanf(r->text, "auto_movsb %zu", &c->auto_movsb) == 1 && next(r) &&
	       sscanf(r->text, "auto_stosb %zu", &c->auto_stosb) == 1 && next(r) &&
	       sscanf(r->text, "nt %zu", &c->nt) == 1 && next(r) && sscanf(r->text, "unit %15s", c->unit) == 1 &&
	       next(r) && sscanf(r->text, "clock %255[^\n]", c->clock) == 1 && next(r) &&
	       sscanf(r->text, "rounds %u", &c->rounds) == 1 && c->rounds >= 1 && c->rounds <= CM_MAX_ROUNDS;
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
	char *s = r->text, *end;
	c->size[p] = strtod(s, &end);
	if (end == s || (p > 0 && c->size[p] < c->size[p - 1]))
		return false;
	for (unsigned k = 0; k < c->rounds; k++) {
		s = end;
		c->cost[p][k] = strtod(s, &end);
		if (end == s || !(c->cost[p][k] >= 0))
			return false;
	}
	return *end == '\0';
}

static bool read_curve(struct reader *r, struct calibration *c)
{
	char fn_name[16], name[24];
	unsigned points;
	if (c->count == TUNE_MAX_CURVES ||
	    sscanf(r->text, "curve %15s %23s %u", fn_name, name, &points) != 3 || function_named(fn_name) < 0 ||
	    points < 1 || points > CM_MAX_POINTS)
		return false;
	struct named_curve *n = &c->curves[c->count];
	n->fn = (enum base_function)function_named(fn_name);
	snprintf(n->name, sizeof n->name, "%s", name);
	n->curve.points = points;
	n->curve.rounds = c->rounds;
	for (unsigned p = 0; p < points; p++)
		if (!next(r) || !read_point(r, &n->curve, p))
			return false;
	cm_curve_finish(&n->curve);
	c->count++;
	return true;
}

bool calibration_read(const char *path, struct calibration *c, char *why, size_t why_size)
{
	struct reader *r = calloc(1, sizeof *r);
	if (!r || !(r->f = fopen(path, "r"))) {
		snprintf(why, why_size, "cannot read %s: %s", path, r ? strerror(errno) : "out of memory");
		free(r);
		return false;
	}
	memset(c, 0, sizeof *c);
	bool ok = read_head(r, c);
	while (ok && next(r) && strcmp(r->text, "end") != 0)
		ok = read_curve(r, c);
	ok = ok && strcmp(r->text, "end") == 0;
	if (!ok)
		snprintf(why, why_size, "%s line %u is not what a calibration file of this memshim has (run memshim tune --calibrate again)",
			 path, r->line);
	fclose(r->f);
	free(r);
	return ok;
}
