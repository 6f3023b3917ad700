#include "tools/util/units_shares.h"

#include "tools/util/glibc_info.h"
#include "dump/size_classes.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define REPORT_CLASS(lo, hi, name) { name, lo, (hi) + 1ull },
const struct size_class size_classes[] = {
	MEMSHIM_SIZE_CLASSES(REPORT_CLASS)
	{ "over 16 MiB", MEMSHIM_SIZE_CLASS_TOP + 1ull, UINT64_MAX },
};
#undef REPORT_CLASS
const unsigned size_class_count = sizeof size_classes / sizeof size_classes[0];

void sum_by_class(const uint64_t *per_bucket, uint64_t *per_class)
{
	for (unsigned c = 0; c < size_class_count; c++)
		per_class[c] = 0;
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		for (unsigned c = 0; c < size_class_count; c++)
			if (hist_bucket_lo(b) >= size_classes[c].lo && hist_bucket_lo(b) < size_classes[c].hi)
				per_class[c] += per_bucket[b];
}

const char *human_size(uint64_t n, char *buf, size_t size)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)n;
	int u = 0;
	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, size, "%" PRIu64 " B", n);
	else if (v < 10 && v != (double)(uint64_t)v)
		snprintf(buf, size, "%.1f %s", v, units[u]);
	else
		snprintf(buf, size, "%.0f %s", v, units[u]);
	return buf;
}

const char *human_duration(double ns, char *buf, size_t size)
{
	static const struct {
		double scale;
		const char *unit;
	} units[] = { { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" } };
	unsigned u = 0;
	while (u < 3 && fabs(ns) < units[u].scale)
		u++;
	double v = ns / units[u].scale;
	snprintf(buf, size, fabs(v) < 10 ? "%.1f %s" : "%.0f %s", v, units[u].unit);
	return buf;
}

static uint64_t sum(const uint64_t *counts, unsigned n)
{
	uint64_t t = 0;
	for (unsigned i = 0; i < n; i++)
		t += counts[i];
	return t;
}

uint64_t sum_buckets(const uint64_t *counts) { return sum(counts, HIST_BUCKETS); }

uint64_t sum_buckets_from(const uint64_t *counts, uint64_t size)
{
	unsigned first = hist_bucket(size);
	return sum(counts + first, HIST_BUCKETS - first);
}

uint64_t sum_mod64(const uint64_t *counts) { return sum(counts, 64); }

const char *dump_title(const struct dump *d, char *buf, size_t size)
{
	size_t n = d->program_count, named = n > 4 ? 3 : n;
	char names[1100] = "";
	size_t len = 0;
	for (size_t i = 0; i < named && len < sizeof names; i++)
		len += (size_t)snprintf(names + len, sizeof names - len, "%s%.250s",
		                        i == 0 ? "" : i + 1 == n ? " and " : ", ", d->programs[i].name);
	if (named < n && len < sizeof names)
		snprintf(names + len, sizeof names - len, " and %zu more", n - named);
	if (n == 0)
		snprintf(names, sizeof names, "?");
	snprintf(buf, size, "%.*s, %u process%s", (int)(size > 40 ? size - 40 : 0), names, d->processes, d->processes == 1 ? "" : "es");
	return buf;
}

uint64_t variant_threshold(const struct dump *d, int fn, const char **what)
{
	const char *v = d->variant[fn];
	if (strcmp(v, "erms") == 0) {
		*what = fn == FN_MEMSET ? "rep stosb from" : "rep movsb from";
		return fn == FN_MEMSET ? d->stosb_threshold : d->movsb_threshold;
	}
	if (strcmp(v, "glibc") == 0 && fn != FN_MEMSET) {
		*what = "glibc's rep movsb from";
		return glibc_threshold(GLIBC_REP_MOVSB);
	}
	if (strcmp(v, "glibc") == 0) {
		*what = "glibc's rep stosb from";
		return glibc_threshold(GLIBC_REP_STOSB);
	}
	return 0;
}
