/* The cases memshim bench times, planned from its options. */
#include "config.h"

#include "tools/bench/bench.h"

#include "tools/calibrate/curves.h"
#include "tools/measure/caches.h"
#include "dump/size_classes.h"
#include "tools/util/hazards.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

const char *const case_kind_names[CASE_KIND_COUNT] = { "sweep", "align", "alias4k", "class", "dist", "hazard",
							"replay" };

static void add(struct plan *p, struct measure_case c)
{
	if (p->count < MAX_RESULTS)
		p->cases[p->count++] = c;
}

static struct measure_case fixed(enum base_function fn, enum case_kind kind, size_t size, bool cold, int so,
			       int dof)
{
	struct measure_case c = { .fn = fn, .kind = kind, .place = cold ? PLACE_COLD : PLACE_L1, .lo = size, .hi = size,
				.src_offset = so, .dst_offset = dof };
	snprintf(c.label, sizeof c.label, "%zu", size);
	if (fn == FN_MEMSET) /* no source */
		snprintf(c.align, sizeof c.align, "d%d", dof);
	else
		snprintf(c.align, sizeof c.align, "s%d/d%d", so, dof);
	return c;
}

/* Sweep sizes: coarse (two per power of two) outside 512 B .. 64 KiB, where
 * the variants' thresholds lie, eight per power of two inside. */
static unsigned default_sweep(bool quick, size_t *sizes)
{
	static const size_t quick_sizes[] = { 0, 8, 16, 32, 64, 128, 256, 512, 768, 1024, 1536, 2048,
					      3072, 4096, 8192, 16384, 32768, 65536, 262144, 1u << 20,
					      4u << 20, 16u << 20, 64u << 20 };
	unsigned n = 0;
	if (quick) {
		for (; n < sizeof quick_sizes / sizeof quick_sizes[0]; n++)
			sizes[n] = quick_sizes[n];
		return n;
	}
	static const size_t small[] = { 0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384 };
	for (; n < sizeof small / sizeof small[0]; n++)
		sizes[n] = small[n];
	for (size_t base = 512; base < 65536; base *= 2)
		for (size_t step = 0; step < 8; step++)
			sizes[n++] = base + step * base / 8;
	for (size_t base = 65536; base <= (64u << 20); base *= 2) {
		sizes[n++] = base;
		if (base < (64u << 20))
			sizes[n++] = base + base / 2;
	}
	return n;
}

static bool power_of_4_from_64(size_t n) { return n >= 64 && (n & (n - 1)) == 0 && __builtin_ctzl(n) % 2 == 0; }

static void plan_sweep(struct plan *p, enum base_function fn, const struct bench_options *o)
{
	size_t sizes[MAX_SIZES];
	unsigned n = o->size_count ? o->size_count : default_sweep(o->quick, sizes);
	const size_t *list = o->size_count ? o->sizes : sizes;
	for (unsigned i = 0; i < n; i++)
		add(p, fixed(fn, CASE_SWEEP, list[i], false, 0, 0));
	/* Cold: every size given, else every fourth power of two (--quick: fewer). */
	for (unsigned i = 0; i < n; i++)
		if (o->size_count || (power_of_4_from_64(list[i]) && (!o->quick || __builtin_ctzl(list[i]) % 4 == 2)))
			add(p, fixed(fn, CASE_SWEEP, list[i], true, 0, 0));
}

static void plan_align(struct plan *p, enum base_function fn, bool quick)
{
	static const int copy_pairs[][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 }, { 0, 8 }, { 0, 32 }, { 7, 33 }, { 63, 63 } };
	static const int set_pairs[][2] = { { 0, 0 }, { 0, 1 }, { 0, 8 }, { 0, 32 }, { 0, 63 } };
	static const size_t quick_sizes[] = { 64, 4096 }, sizes[] = { 16, 64, 256, 1024, 4096, 65536 };
	const int(*pairs)[2] = fn == FN_MEMSET ? set_pairs : copy_pairs;
	unsigned pair_count = fn == FN_MEMSET ? 5 : 7, size_count = quick ? 2 : 6;
	for (unsigned s = 0; s < size_count; s++)
		for (unsigned i = 0; i < pair_count; i++)
			add(p, fixed(fn, CASE_ALIGN, quick ? quick_sizes[s] : sizes[s], false, pairs[i][0],
				     pairs[i][1]));
}

/* (dst - src) mod 4096 just above 0 makes a copy's loads look as if they
 * depend on its stores of a moment ago; 2048 is the unaffected reference. */
static void plan_alias(struct plan *p, enum base_function fn, bool quick)
{
	static const int deltas[] = { 0, 16, 64, 4080, 2048 };
	static const size_t quick_sizes[] = { 4096 }, sizes[] = { 1024, 4096, 65536 };
	if (fn == FN_MEMSET)
		return; /* one buffer: nothing to alias */
	for (unsigned s = 0; s < (quick ? 1u : 3u); s++)
		for (unsigned i = 0; i < sizeof deltas / sizeof deltas[0]; i++) {
			struct measure_case c = fixed(fn, CASE_ALIAS, quick ? quick_sizes[s] : sizes[s], false, 0, deltas[i]);
			c.exact_distance = true;
			snprintf(c.align, sizeof c.align, deltas[i] > 2048 ? "4k-%d" : "4k+%d",
				 deltas[i] > 2048 ? 4096 - deltas[i] : deltas[i]);
			add(p, c);
		}
}

/* One case of the catalogue: hazard h for fn at a size and a where. */
static struct measure_case hazard_case(const struct hazard *h, enum base_function fn, size_t size, int where)
{
	bool offsets = h->shape == SHAPE_OFFSETS;
	struct measure_case c = fixed(fn, CASE_HAZARD, size, h->cold, offsets ? where / 64 : 0,
				      h->shape == SHAPE_ALIAS ? where : offsets ? where % 64 : 0);
	c.exact_distance = h->shape == SHAPE_ALIAS;
	c.gap = h->shape == SHAPE_OVERLAP ? where : 0;
	hazard_where_text(h, fn, where, c.align, sizeof c.align);
	return c;
}

/* Every case of the hazard catalogue for fn (--quick: each hazard at its
 * second size only, where it is known to show). */
static void plan_hazards(struct plan *p, enum base_function fn, bool quick)
{
	for (unsigned i = 0; i < hazard_count; i++) {
		const struct hazard *h = &hazards[i];
		if (!(h->functions & (1u << fn)))
			continue;
		for (unsigned s = 0; s < h->size_count; s++)
			for (unsigned w = 0; w < h->where_count && (!quick || (s == 1 % h->size_count && !h->cold)); w++)
				add(p, hazard_case(h, fn, h->sizes[s], h->where[w]));
	}
}

/* Each size class with its data where the built-in plan puts it (L1 to
 * 32 KiB, cold beyond), or with every_placement in each placement. */
static void plan_classes(struct plan *p, enum base_function fn, bool every_placement)
{
#define CLASS(lo, hi, name) { lo, hi, name },
	static const struct {
		size_t lo, hi;
		const char *label;
	} classes[] = { MEMSHIM_SIZE_CLASSES(CLASS) };
#undef CLASS
	for (int overlap = 0; overlap <= (fn == FN_MEMMOVE); overlap++)
		for (unsigned i = 0; i < sizeof classes / sizeof classes[0]; i++)
			for (int place = 0; place < PLACE_COUNT; place++) {
				if (!every_placement && place != (i >= 6 ? PLACE_COLD : PLACE_L1))
					continue;
				struct measure_case c = { .fn = fn, .kind = CASE_CLASS, .place = place, .overlap = overlap,
							.lo = classes[i].lo, .hi = classes[i].hi, .src_offset = -1,
							.dst_offset = -1 };
				snprintf(c.label, sizeof c.label, "%s", classes[i].label);
				snprintf(c.align, sizeof c.align, "random");
				add(p, c);
			}
}

/* A distribution is for the function its name starts with, if any
 * (Memcpy_Fleet for memcpy, whether built in or given). */
static bool dist_fits(const struct size_dist *d, enum base_function fn)
{
	for (int f = 0; f < FN_COUNT; f++)
		if (strncasecmp(d->name, base_function_names[f], strlen(base_function_names[f])) == 0)
			return f == (int)fn;
	return true;
}

static void plan_dists(struct plan *p, enum base_function fn, const struct distributions *d)
{
	/* In each placement: a distribution's ratio depends on where the data lives. */
	for (int place = 0; place < PLACE_COUNT; place++)
		for (unsigned i = 0; i < d->count; i++) {
			int only = d->list[i]->function;
			if (only >= 0 ? only != (int)fn : !dist_fits(d->list[i], fn))
				continue;
			struct measure_case c = { .fn = fn, .kind = CASE_DIST, .dist = d->list[i], .src_offset = -1,
						.dst_offset = -1, .place = place };
			snprintf(c.label, sizeof c.label, "%s", d->list[i]->name);
			snprintf(c.align, sizeof c.align, "random");
			add(p, c);
		}
}

/* --read-back: the cases the calibration would time with a read of each
 * call's destination, timed so. */
static void plan_read_back(struct plan *p)
{
	for (size_t i = 0; i < p->count; i++)
		p->cases[i].read_back = p->cases[i].lo >= CALIBRATE_READ_BACK_FROM;
}

void bench_plan_cases(struct plan *p, const struct bench_options *o, const struct distributions *d)
{
	for (int fn = 0; fn < FN_COUNT; fn++) {
		if (!(o->functions & (1u << fn)))
			continue;
		if (o->cases & (1u << CASE_SWEEP))
			plan_sweep(p, fn, o);
		if (o->cases & (1u << CASE_ALIGN))
			plan_align(p, fn, o->quick);
		if (o->cases & (1u << CASE_ALIAS))
			plan_alias(p, fn, o->quick);
		if (o->cases & (1u << CASE_CLASS))
			plan_classes(p, fn, o->every_placement);
		if (o->cases & (1u << CASE_DIST))
			plan_dists(p, fn, d);
		if (o->cases & (1u << CASE_HAZARD))
			plan_hazards(p, fn, o->quick);
	}
	if (o->read_back)
		plan_read_back(p);
	for (size_t i = 0; o->in_use && i < p->count; i++)
		p->cases[i].in_use = true;
}

