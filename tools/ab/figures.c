/* memshim ab's figures: each setting's measures over the runs, and one
 * setting set against another run by run. */
#include "config.h"

#include "tools/ab/ab.h"

#include "tools/util/quantile.h"

#include <math.h>
#include <string.h>

struct summary ab_summarise(const struct ab *a, unsigned setting, enum measure m)
{
	double v[MAX_RUNS];
	memcpy(v, series(a, setting, m), a->runs * sizeof v[0]);
	double median = quantile(v, a->runs, 0.5); /* sorts v */
	return (struct summary){ median, v[0], v[a->runs - 1] };
}

/* Judged on the shortest run: a loaded machine only ever adds time, so a
 * median can pass for long what is a millisecond of work and waits. */
bool ab_too_short(const struct ab *a, unsigned setting, enum measure m)
{
	return (m == M_WALL || m == M_CPU) && ab_summarise(a, setting, m).min < SHORTEST_RUN_S;
}

/* An in-function measure: read from the runs' dumps. */
bool ab_inside(enum measure m)
{
	return m == M_FN || m == M_TIMED;
}

/* Every run of the setting has a value in values[0..runs). */
bool ab_every_run(const struct ab *a, const double *values)
{
	for (unsigned r = 0; r < a->runs; r++)
		if (!(values[r] > 0))
			return false;
	return true;
}

/* Every run of the setting has its in-function time m (asked for). */
bool ab_has_fn_time(const struct ab *a, unsigned setting, enum measure m)
{
	return (m == M_FN ? a->profile : a->timing) && ab_every_run(a, series(a, setting, m));
}

/* The setting the in-function times m are compared with: the first that has them. */
int ab_fn_baseline(const struct ab *a, enum measure m)
{
	for (unsigned i = 0; i < a->count; i++)
		if (ab_has_fn_time(a, i, m))
			return (int)i;
	return -1;
}

/* Whether m of setting i can be set against base: both timed. */
bool ab_comparable(const struct ab *a, unsigned i, unsigned base, enum measure m)
{
	if (ab_inside(m))
		return ab_has_fn_time(a, i, m) && ab_has_fn_time(a, base, m);
	return !ab_too_short(a, i, M_WALL) && !ab_too_short(a, base, M_WALL) && !ab_too_short(a, i, m) && !ab_too_short(a, base, m);
}

bool ab_compare(const struct ab *a, unsigned i, unsigned base, enum measure m, struct paired_ratio *r)
{
	return ab_comparable(a, i, base, m) && paired_compare(series(a, i, m), series(a, base, m), a->runs, a->level, r);
}
