/* The hazard catalogue (tools/util/hazards.h). */
#include "tools/util/hazards.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COPIES ((1u << FN_MEMCPY) | (1u << FN_MEMMOVE))
#define KiB 1024u
#define MiB (1024u * 1024u)

const struct hazard hazards[] = {
	/* rep movsb, which glibc runs from about 2 KiB, stalls on AMD Zen 3 and
	 * Zen 4 when the destination lies a few bytes past the source in the
	 * page: its loads seem to hit its own stores of a moment ago. */
	{ "alias4k", COPIES, SHAPE_ALIAS, false, { 1, 16, 63, 4080, 2048 }, 5, 2048,
	  { 2113, 8 * KiB, 64 * KiB, 512 * KiB - 1 }, 4,
	  "(dst - src) mod 4096 in 1..63 or 4033..4095 from 2 KiB: rep movsb can run at a few GB/s" },
	/* A forward memmove onto its own source a few bytes on: the copy must
	 * run backwards, and a backward rep movsb is slow everywhere. */
	{ "overlap", 1u << FN_MEMMOVE, SHAPE_OVERLAP, false, { 1, 16, 33, 63 }, 4, -1,
	  { 2 * KiB, 64 * KiB, 1 * MiB }, 3,
	  "memmove with dst = src + 1..63: the copy runs backwards, where rep movsb is slow" },
	/* The destination off the cache line while the source is on it, and the
	 * reverse: string instructions and vector loops that align one side. */
	{ "misalign", COPIES, SHAPE_OFFSETS, false, { 0 * 64 + 1, 1 * 64 + 0, 0 * 64 + 33 }, 3, -1,
	  { 4 * KiB, 64 * KiB }, 2,
	  "the destination misaligned while the source is aligned, or the reverse" },
	/* Where glibc's memset switches to rep stosb, which starts slowly on
	 * some CPUs. */
	{ "stosb", 1u << FN_MEMSET, SHAPE_PLAIN, false, { 0 }, 1, -1,
	  { 1 * KiB, 2 * KiB, 4 * KiB, 8 * KiB }, 4,
	  "memset from 1 KiB to 8 KiB, where rep stosb begins" },
	/* Larger than the L3 but under glibc's non-temporal threshold, which
	 * glibc sets from the L3 it reads (too high where a VM reports the
	 * whole socket's): ordinary stores then evict the caches for nothing. */
	{ "nt", COPIES | (1u << FN_MEMSET), SHAPE_PLAIN, true, { 0 }, 1, -1,
	  { 32 * MiB, 64 * MiB }, 2,
	  "copies larger than the L3 with ordinary stores, below glibc's non-temporal threshold" },
};
const unsigned hazard_count = sizeof hazards / sizeof hazards[0];

const struct hazard *hazard_named(const char *name, size_t len)
{
	for (unsigned i = 0; i < hazard_count; i++)
		if (strlen(hazards[i].name) == len && strncmp(hazards[i].name, name, len) == 0)
			return &hazards[i];
	return NULL;
}

void hazard_where_text(const struct hazard *h, enum base_function fn, int where, char *buf, size_t size)
{
	switch (h->shape) {
	case SHAPE_ALIAS:
		snprintf(buf, size, where > 2048 ? "%s:4k-%d" : "%s:4k+%d", h->name, where > 2048 ? 4096 - where : where);
		break;
	case SHAPE_OVERLAP: snprintf(buf, size, "%s:+%d", h->name, where); break;
	case SHAPE_OFFSETS: snprintf(buf, size, "%s:s%d/d%d", h->name, where / 64, where % 64); break;
	default: snprintf(buf, size, fn == FN_MEMSET ? "%s:d0" : "%s:s0/d0", h->name); break;
	}
}

const struct hazard *hazard_of_column(const char *column, bool *judged)
{
	const char *colon = strchr(column, ':');
	const struct hazard *h = colon ? hazard_named(column, (size_t)(colon - column)) : NULL;
	char reference[32] = "";
	if (h && h->reference >= 0) /* only copies have one */
		hazard_where_text(h, FN_MEMCPY, h->reference, reference, sizeof reference);
	*judged = h && strcmp(column, reference) != 0;
	return h;
}

const char *row_list_entry(const char *list, const char *name)
{
	size_t len = strlen(name);
	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, name, len) == 0 && p[len] == ':')
			return p + len + 1;
	return NULL;
}

double hazard_multiple(const char *list, const char *variant, char *where, size_t size)
{
	const char *entry = row_list_entry(list, variant);
	char *end;
	if (!entry)
		return -1;
	double x = strtod(entry, &end);
	end += *end == ':';
	if (where)
		snprintf(where, size, "%.*s", (int)strcspn(end, ","), end);
	return x;
}
