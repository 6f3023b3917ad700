/* The measuring engine (measure.h): placing the calls, timing them, and the statistics.
 *
 * A case is timed as pairs of batches.  A batch is one pass over an array of
 * prepared calls (size, source, destination), preceded by the same calls
 * untimed, a new order for them and the placement of their data.  A pair times one column and
 * glibc on the same calls, in an order drawn at random, one right after the
 * other: a slow spell of this shared machine, or a neighbour on the other
 * core, hits both arms of a pair alike, and the pair's ratio cancels it.
 * The figure is the median of the pairs' ratios, which an outlying pair
 * moves no further than any other.  Pairs are added, a chunk at a time and
 * the columns' chunks in a shuffled order, until each column's interval is
 * as narrow as asked or its time is spent.  The same method with glibc as
 * both arms is the A/A arm: what the instrument reads where there is no
 * difference. */
#include "config.h"

#include "dump/format.h"
#include "tools/measure/caches.h"
#include "tools/measure/measure.h"
#include "tools/measure/round_stats.h"
#include "tools/util/quantile.h"

#include <emmintrin.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096u
/* The most calls a batch makes, by placement: many sizes drawn in each
 * L1 or L2 batch; one in the L3 or cold costs a read of other data or a flush
 * of its lines, and fewer calls keep that short. */
static const unsigned max_calls[PLACE_COUNT] = { 16384, 16384, 2048, 512 };
#define MAX_CALLS 16384u
/* A batch moves at most this much (at least one call): many pairs of large
 * calls in the time of a few, and no batch of a size class's calls longer
 * than a scheduler's tick on this machine's clock. */
#define BATCH_BYTES (1u << 20)

/* ---- buffers ---- */

static char *arena;
static size_t arena_size;

static size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

size_t measure_cold_span(void)
{
	size_t twice_l3 = 2 * tool_cache_sizes()->l3;
	return twice_l3 < MEASURE_COLD_SPAN_MAX ? twice_l3 : MEASURE_COLD_SPAN_MAX;
}

bool measure_buffers_init(size_t largest_size, size_t cold_bytes)
{
	/* An overlapping memmove of the largest size takes three spans (below). */
	size_t want = round_up(3 * (round_up(largest_size, PAGE) + 2 * PAGE), 2u << 20);
	want = want > cold_bytes ? want : round_up(cold_bytes, 2u << 20);
	if (arena && arena_size >= want)
		return true; /* a caller measuring in parts: the buffers of the first part do */
	if (arena)
		munmap(arena - PAGE, arena_size + 2 * PAGE);
	arena = NULL;
	arena_size = want;
	/* A page on either side of the arena, so that a masked span reaching
	   past a call's bytes finds a page present at the arena's ends too, as
	   it does everywhere inside: what a page not present costs is measured
	   apart (bench/masked_window.c, bench/window_hazard.c; D51). */
	void *p = mmap(NULL, arena_size + 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "memshim bench: cannot map %zu MiB of buffers: %s\n", arena_size >> 20,
			strerror(errno));
		return false;
	}
	/* Kept out of any child the tool forks (the path trace's): a fork
	   write-protects every page the child shares, and until its first real
	   write each costs a fault, and each masked store with its bytes
	   masked off there a microcode assist, inside the timings. */
	madvise(p, arena_size + 2 * PAGE, MADV_DONTFORK);
	/* Every page faulted in now, so no fault lands inside a timing. */
	memset(p, 0x11, arena_size + 2 * PAGE);
	arena = (char *)p + PAGE;
	return true;
}

/* ---- placing calls ---- */

struct call {
	uint32_t src, dst, size; /* offsets into the arena; the arena is < 4 GiB */
};

static struct call calls[MAX_CALLS];

/* The room one call of `size` bytes takes for its source or its destination:
 * the size, plus two pages for an offset into the first one. */
static size_t span_for(size_t size) { return round_up(size, PAGE) + 2 * PAGE; }

static size_t draw_size(const struct measure_case *c, uint64_t *rng)
{
	if (c->dist)
		return size_dist_draw(c->dist, measure_random(rng));
	return c->lo + (c->hi > c->lo ? measure_random(rng) % (c->hi - c->lo + 1) : 0);
}

/* A random offset into a page, a multiple of the distribution's alignment. */
static size_t random_offset(const struct measure_case *c, uint64_t *rng)
{
	unsigned align = c->dist ? size_dist_draw_align(c->dist, measure_random(rng)) : 1;
	return (measure_random(rng) % PAGE) / align * align;
}

/* Source and destination of one call whose room starts at `base`.  The
 * destination room follows the source room, which is a whole number of
 * pages, so (dst - src) mod 4096 is the offsets' difference: 2048 apart
 * unless the case asks otherwise, far from 4 KiB aliasing. */
static void place(const struct measure_case *c, size_t base, size_t span, bool overlap, uint64_t *rng,
		  struct call *call)
{
	size_t so = c->src_offset >= 0 ? (size_t)c->src_offset : random_offset(c, rng);
	size_t dof = c->dst_offset >= 0 ? (size_t)c->dst_offset : random_offset(c, rng);
	if (!c->exact_distance && c->dst_offset >= 0)
		dof += PAGE / 2;
	if (c->gap > 0) {
		call->src = (uint32_t)(base + span + so);
		call->dst = call->src + (uint32_t)c->gap;
		return;
	}
	if (!overlap) {
		call->src = (uint32_t)(base + so);
		call->dst = (uint32_t)(base + span + dof);
		return;
	}
	/* Overlapping: the destination within `size` bytes of the source, either side. */
	size_t n = call->size;
	long shift = n > 1 ? (long)(measure_random(rng) % (2 * n - 1)) - (long)(n - 1) : 0;
	call->src = (uint32_t)(base + span + so);
	call->dst = (uint32_t)((long)call->src + (shift ? shift : 1));
}

static bool draws_overlap(const struct measure_case *c, uint64_t *rng)
{
	if (c->fn != FN_MEMMOVE)
		return false;
	if (c->dist && c->dist->overlap > 0)
		return size_dist_draw_overlap(c->dist, measure_random(rng));
	return c->overlap;
}

static size_t case_max_size(const struct measure_case *c)
{
	return c->replay ? c->replay->max : c->dist ? c->dist->max : c->hi;
}

/* Where the next call's room starts: L1 calls all share the arena's
 * first, spread ones each take the next of `stride` bytes at least. */
static size_t next_room(bool spread, size_t room, size_t stride, size_t limit, size_t *cursor)
{
	if (!spread)
		return 0;
	if (*cursor + room > limit)
		*cursor = 0;
	size_t base = *cursor;
	*cursor += room > stride ? room : stride;
	return base;
}

/* A recorded call in a room of three spans at `base`: source and
 * destination at their recorded offsets mod 4096, and, where they lay
 * within a span of each other (overlapping, or close), exactly as far
 * apart as recorded; farther apart the distance mod 4096 is kept. */
static void place_recorded(const struct measure_case *c, const struct seq_call *r, size_t base, size_t span,
			   struct call *call)
{
	int64_t d = r->distance;
	uint64_t apart = d < 0 ? -(uint64_t)d : (uint64_t)d;
	size_t far = span - PAGE;
	call->size = (uint32_t)r->size;
	/* a memcpy recorded on overlapping ranges (the program's bug, or a
	 * dump's lie) is replayed on separate ones: memcpy on an overlap is
	 * undefined, and in the tool would be ours */
	bool overlapping_memcpy = c->fn == FN_MEMCPY && apart < r->size;
	if (c->fn == FN_MEMSET) {
		call->src = call->dst = (uint32_t)(base + span + r->dst_off);
	} else if (apart < far && !overlapping_memcpy) {
		call->src = (uint32_t)(base + span + r->src_off);
		call->dst = (uint32_t)((int64_t)call->src + d);
	} else {
		call->src = (uint32_t)(base + r->src_off);
		call->dst = (uint32_t)(base + span + r->dst_off);
	}
}

/* The bytes from the arena's start that a placement's calls are spread over. */
static size_t placement_span(enum placement place)
{
	const struct cache_sizes *caches = tool_cache_sizes();
	size_t span[PLACE_COUNT] = { 0, caches->l2 / 2, MEASURE_L3_SETS * caches->l2, arena_size };
	return span[place] < arena_size ? span[place] : arena_size;
}

/* Fills calls[0..n) with n recorded calls in their order, from a point
 * drawn at random (each round another part of the recording). */
static double prepare_replay(const struct measure_case *c, size_t n, uint64_t *rng)
{
	const struct replay_calls *p = c->replay;
	bool spread = c->place != PLACE_L1;
	size_t limit = placement_span(c->place);
	size_t stride = limit / n / PAGE * PAGE, cursor = 0, at = measure_random(rng) % p->count;
	double bytes = 0;
	for (size_t i = 0; i < n; i++) {
		const struct seq_call *r = &p->calls[(at + i) % p->count];
		size_t span = span_for(spread ? r->size : p->max);
		place_recorded(c, r, next_room(spread, 3 * span, stride, limit, &cursor), span, &calls[i]);
		bytes += (double)r->size;
	}
	return bytes / (double)n;
}

/* Fills calls[0..n): in L1 all in one room at the arena's start, else each
 * in its own room over the placement's span from the arena's start. */
static double prepare_calls(const struct measure_case *c, size_t n, uint64_t *rng)
{
	if (c->replay)
		return prepare_replay(c, n, rng);
	bool spread = c->place != PLACE_L1;
	size_t l1_span = span_for(case_max_size(c));
	size_t limit = placement_span(c->place);
	size_t stride = limit / n / PAGE * PAGE, cursor = 0;
	double bytes = 0;
	for (size_t i = 0; i < n; i++) {
		struct call *call = &calls[i];
		call->size = (uint32_t)draw_size(c, rng);
		bool overlap = draws_overlap(c, rng);
		size_t span = spread ? span_for(call->size) : l1_span;
		size_t base = next_room(spread, (overlap ? 3 : 2) * span, stride, limit, &cursor);
		place(c, base, span, overlap, rng, call);
		bytes += call->size;
	}
	return bytes / (double)n;
}

/* How many calls a batch makes: many, to draw many sizes and offsets, but a
 * bounded number of bytes. */
static size_t calls_per_batch(const struct measure_case *c)
{
	double mean = c->replay ? c->replay->mean : c->dist ? c->dist->mean : (double)(c->lo + c->hi) / 2;
	double n = mean > 0 ? BATCH_BYTES / mean : max_calls[c->place];
	return n < 1 ? 1 : n > max_calls[c->place] ? max_calls[c->place] : (size_t)n;
}

/* Every line of a cold batch's buffers leaves every cache level (and is
 * written back if dirty): cold without a working set larger than the
 * caches, in time bounded by the batch's own bytes. */
static void flush_calls(size_t n)
{
	for (size_t i = 0; i < n; i++) {
		caches_flush(arena + calls[i].src, calls[i].size);
		caches_flush(arena + calls[i].dst, calls[i].size);
	}
	_mm_mfence(); /* orders CLFLUSHOPT too: every line is out before the batch starts */
}

/* ---- timing ---- */

/* noinline: each pass is a real loop of indirect calls, whatever the caller. */
__attribute__((noinline)) static void run_copies(copy_fn *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		f(arena + calls[i].dst, arena + calls[i].src, calls[i].size);
}

__attribute__((noinline)) static void run_sets(set_fn *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		f(arena + calls[i].dst, 0x5a, calls[i].size);
}

static volatile unsigned read_sink;

/* One load per cache line of p[0..n): what a caller that uses the copy
 * pays next, cheap if the stores left the lines in the cache, a trip to
 * memory if they streamed past it. */
static inline unsigned read_lines(const volatile unsigned char *p, size_t n)
{
	unsigned sum = 0;
	for (size_t a = 0; a < n; a += 64)
		sum += p[a];
	return n ? sum + p[n - 1] : sum;
}

/* An in_use case's source written just before its copy, eight bytes at a
 * time, and its destination read after it (run_copies_read), as a program
 * builds what it copies and uses the copy.  A store's bytes reach a later
 * load of them from the store buffer only where that load is plain and
 * lies within the store: the masked moves' spans take no part in that
 * forwarding, and wait for the stores to be written to the cache (D49). */
static inline void write_source(unsigned char *p, size_t n)
{
	for (size_t a = 0; a < n; a += 8)
		__builtin_memcpy(p + a, &a, 8);
}

/* The passes of read_back cases: each call, then a read of its destination;
 * in_use cases write each source first (write_source). */
__attribute__((noinline)) static void run_copies_read(copy_fn *f, size_t n, bool in_use)
{
	unsigned sum = 0;
	for (size_t i = 0; i < n; i++) {
		if (in_use)
			write_source((unsigned char *)arena + calls[i].src, calls[i].size);
		f(arena + calls[i].dst, arena + calls[i].src, calls[i].size);
		sum += read_lines((const unsigned char *)arena + calls[i].dst, calls[i].size);
	}
	read_sink = sum;
}

__attribute__((noinline)) static void run_sets_read(set_fn *f, size_t n)
{
	unsigned sum = 0;
	for (size_t i = 0; i < n; i++) {
		f(arena + calls[i].dst, 0x5a, calls[i].size);
		sum += read_lines((const unsigned char *)arena + calls[i].dst, calls[i].size);
	}
	read_sink = sum;
}


/* The band of a setting's function that serves a call of `size`. */
static unsigned band_of(const struct measure_bands *b, size_t size)
{
	unsigned i = 0;
	while (i + 1 < b->count && size > b->upper[i])
		i++;
	return i;
}

/* The passes of a setting with bands: each call finds its band first, as
 * the exported stub does. */
__attribute__((noinline)) static void run_banded(const struct measure_bands *b, enum base_function fn, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned band = band_of(b, calls[i].size);
		if (fn == FN_MEMSET)
			b->set[band](arena + calls[i].dst, 0x5a, calls[i].size);
		else
			b->copy[band](arena + calls[i].dst, arena + calls[i].src, calls[i].size);
	}
}

/* The passes of fenced cases: each call alone between two lfences, as a
 * timed call runs (preload/timing.h), so that it takes its latency, not
 * its share of a stream; v NULL: the fences alone, subtracted after. */
__attribute__((noinline)) static void run_fenced(const struct measure_variant *v, enum base_function fn, size_t n)
{
	const struct measure_bands *b = v ? v->bands[fn] : NULL;
	for (size_t i = 0; i < n; i++) {
		__asm__ volatile("lfence" ::: "memory");
		unsigned band = b ? band_of(b, calls[i].size) : 0;
		if (v && fn == FN_MEMSET)
			(b ? b->set[band] : v->set)(arena + calls[i].dst, 0x5a, calls[i].size);
		else if (v)
			(b ? b->copy[band] : v->copy[fn])(arena + calls[i].dst, arena + calls[i].src, calls[i].size);
		__asm__ volatile("lfence" ::: "memory");
	}
}

static void run_pass(const struct measure_variant *v, const struct measure_case *c, size_t n)
{
	if (c->fenced)
		run_fenced(v, c->fn, n);
	else if (v->bands[c->fn])
		run_banded(v->bands[c->fn], c->fn, n);
	else if (c->fn == FN_MEMSET)
		(c->read_back || c->in_use ? run_sets_read : run_sets)(v->set, n);
	else if (c->read_back || c->in_use)
		run_copies_read(v->copy[c->fn], n, c->in_use);
	else
		run_copies(v->copy[c->fn], n);
}

/* Other data, read through L1 and L2 before an L3 batch so that the
 * batch's lines are left in the L3 alone: twice the L2, mapped once. */
static unsigned char *evict;
static size_t evict_bytes;

static const unsigned char *evict_data(size_t *size)
{
	unsigned char *data = evict;
	size_t bytes = evict_bytes;
	if (!data) {
		bytes = 2 * tool_cache_sizes()->l2;
		void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		madvise(p, bytes, MADV_DONTFORK); /* measure_buffers_init says why */
		memset(p, 0x22, bytes);
		evict = data = p;
		evict_bytes = bytes;
	}
	*size = bytes;
	return data;
}

/* Puts the batch's data where its placement says, after its untimed pass. */
static void place_data(const struct measure_case *c, size_t n)
{
	size_t size = 0;
	const unsigned char *other;
	if (c->place == PLACE_COLD)
		flush_calls(n);
	else if (c->place == PLACE_L3 && (other = evict_data(&size)))
		read_sink = read_lines(other, size);
}

/* Passes the library the thresholds a column's variant runs with. */
static void install_thresholds(const struct measure_settings *s, const struct measure_variant *v)
{
	if (v->install_thresholds)
		v->install_thresholds(v->thresholds ? v->thresholds : s->thresholds);
}

/* Puts calls[0..n) in an order drawn at random.  The branch predictors of
 * a recent core learn much of a pass of thousands of calls that they have
 * seen before: a timed pass in an order already run reads a branchy copy
 * faster than any program's random sizes make it, and one arm's time then
 * depends on the code of the other arm, which shares the predictors'
 * room.  A replay keeps its recorded order, which is what it measures. */
static void new_order(const struct measure_case *c, size_t n, uint64_t *rng)
{
	if (c->replay)
		return;
	for (size_t i = n; i > 1; i--) {
		/* the high half of a 64x64-bit product: no division in a loop of thousands */
		size_t j = (size_t)(((unsigned __int128)measure_random(rng) * i) >> 64);
		struct call t = calls[i - 1];
		calls[i - 1] = calls[j];
		calls[j] = t;
	}
}

/* One batch of v on calls[0..n), in an order not timed before: its time per call. */
static double time_batch(const struct measure_settings *s, const struct measure_variant *v,
			 const struct measure_case *c, size_t n, uint64_t *rng)
{
	install_thresholds(s, v);
	run_pass(v, c, n); /* the code, the predictors and the data warm, as for the other arm */
	new_order(c, n, rng);
	place_data(c, n);
	uint64_t start = measure_clock_now(&s->clock);
	run_pass(v, c, n);
	double t = (double)(measure_clock_now(&s->clock) - start);
	if (c->fenced) { /* the fences' own time off, measured beside */
		start = measure_clock_now(&s->clock);
		run_fenced(NULL, c->fn, n);
		t -= (double)(measure_clock_now(&s->clock) - start);
	}
	return t / (double)n;
}

/* ---- pairs ---- */

/* A column of the comparison: a variant, or (variant == NULL-index
 * AA_COLUMN) glibc against itself, with its pairs so far. */
struct column {
	unsigned variant; /* index in s->variants, or the A/A arm's AA_COLUMN */
	unsigned pairs;
	uint64_t spent_ns;
	bool done;
};
#define AA_COLUMN MEASURE_MAX_COLUMNS

static double t_arm[MEASURE_MAX_COLUMNS + 1][MEASURE_MAX_PAIRS];  /* the column's batches */
static double t_base[MEASURE_MAX_COLUMNS + 1][MEASURE_MAX_PAIRS]; /* glibc's, pair by pair */

static void shuffle(unsigned *order, unsigned n, uint64_t *rng)
{
	for (unsigned i = n; i > 1; i--) {
		unsigned j = (unsigned)(measure_random(rng) % i), t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
}

/* Adds up to `count` pairs to column k on fresh calls; their mean size
 * into *bytes. */
static void add_pairs(const struct measure_settings *s, const struct measure_case *c, struct column *k, unsigned count,
		      size_t n, uint64_t *rng, double *bytes)
{
	const struct measure_variant *g = &s->variants[s->glibc];
	const struct measure_variant *v = k->variant == AA_COLUMN ? g : &s->variants[k->variant];
	uint64_t start = monotonic_ns();
	*bytes = prepare_calls(c, n, rng);
	for (unsigned i = 0; i < count && k->pairs < s->stop.max_pairs; i++, k->pairs++) {
		unsigned slot = k->variant == AA_COLUMN ? AA_COLUMN : k->variant;
		bool base_first = measure_random(rng) & 1;
		if (base_first)
			t_base[slot][k->pairs] = time_batch(s, g, c, n, rng);
		t_arm[slot][k->pairs] = time_batch(s, v, c, n, rng);
		if (!base_first)
			t_base[slot][k->pairs] = time_batch(s, g, c, n, rng);
	}
	k->spent_ns += monotonic_ns() - start;
}

/* Whether column k has pairs enough: see struct measure_stop. */
static bool column_done(const struct measure_stop *stop, const struct column *k)
{
	if (k->pairs >= stop->max_pairs)
		return true;
	if (k->pairs < stop->min_pairs)
		return false;
	if ((double)k->spent_ns >= stop->seconds * 1e9)
		return true;
	unsigned slot = k->variant == AA_COLUMN ? AA_COLUMN : k->variant;
	struct round_summary m = round_summarise(t_arm[slot], t_base[slot], k->pairs);
	return m.ratio > 0 && (m.ratio_high - m.ratio_low) / m.ratio <= stop->width;
}

/* The columns of case c: every variant that has its function but glibc,
 * and the A/A arm if asked or if there is no other. */
static unsigned case_columns(const struct measure_settings *s, const struct measure_case *c, struct column *k)
{
	unsigned count = 0;
	for (unsigned v = 0; v < s->variant_count; v++)
		if (v != s->glibc && measure_variant_has(&s->variants[v], c->fn))
			k[count++] = (struct column){ .variant = v };
	if (s->aa || !count) /* with no other column, glibc's time comes from its A/A pairs */
		k[count++] = (struct column){ .variant = AA_COLUMN };
	return count;
}

/* ---- statistics ---- */

double measure_aa_deviation(const struct measure_result *r)
{
	if (!r->aa.pairs)
		return 0;
	double d = fabs(1 - r->aa.ratio), lo = fabs(1 - r->aa.low), hi = fabs(1 - r->aa.high);
	return d > lo ? (d > hi ? d : hi) : (lo > hi ? lo : hi);
}

/* glibc's batches of every column, for its own time: at most all pairs. */
static double glibc_times[(MEASURE_MAX_COLUMNS + 1) * MEASURE_MAX_PAIRS];

static void summarise(const struct measure_settings *s, const struct column *k, unsigned count,
		      struct measure_result *r)
{
	unsigned all = 0;
	for (unsigned i = 0; i < count; i++) {
		unsigned slot = k[i].variant;
		struct round_summary m = round_summarise(t_arm[slot], t_base[slot], k[i].pairs);
		memcpy(glibc_times + all, t_base[slot], k[i].pairs * sizeof glibc_times[0]);
		all += k[i].pairs;
		r->rounds = k[i].pairs > r->rounds ? k[i].pairs : r->rounds;
		if (slot == AA_COLUMN) {
			r->aa = (struct measure_ratio){ m.ratio, m.ratio_low, m.ratio_high, k[i].pairs };
			continue;
		}
		r->median[slot] = m.median, r->p10[slot] = m.p10, r->p90[slot] = m.p90;
		r->ratio[slot] = m.ratio, r->ratio_low[slot] = m.ratio_low, r->ratio_high[slot] = m.ratio_high;
		r->pairs[slot] = k[i].pairs;
	}
	struct round_summary g = round_summarise(glibc_times, glibc_times, all);
	unsigned b = s->glibc;
	r->median[b] = g.median, r->p10[b] = g.p10, r->p90[b] = g.p90;
	r->ratio[b] = r->ratio_low[b] = r->ratio_high[b] = 1;
	r->pairs[b] = all;
}

/* With round_times: each pair's time of every variant, as struct
 * measure_settings says. */
static void keep_round_times(const struct measure_settings *s, const struct column *k, unsigned count,
			     const struct measure_result *r)
{
	unsigned pairs = s->stop.max_pairs;
	for (unsigned p = 0; p < pairs; p++)
		s->round_times[s->glibc * pairs + p] = r->median[s->glibc];
	for (unsigned i = 0; i < count; i++)
		for (unsigned p = 0; k[i].variant != AA_COLUMN && p < pairs; p++) {
			unsigned v = k[i].variant;
			double base = t_base[v][p];
			s->round_times[v * pairs + p] = base > 0 ? r->median[s->glibc] * t_arm[v][p] / base : 0;
		}
}

void measure_run(const struct measure_settings *s, const struct measure_case *c, struct measure_result *r)
{
	struct column k[MEASURE_MAX_COLUMNS + 1];
	unsigned count = case_columns(s, c, k), order[MEASURE_MAX_COLUMNS + 1];
	size_t n = calls_per_batch(c);
	uint64_t rng = 0x6d656d7368696dull ^ ((uint64_t)c->fn << 56) ^ ((uint64_t)c->kind << 48) ^ c->lo ^
		       ((uint64_t)c->hi << 20) ^ ((uint64_t)c->place << 40);
	double bytes = 0, batches = 0;
	memset(r, 0, sizeof *r);
	r->c = *c;
	for (bool more = true; more;) {
		unsigned active = 0;
		for (unsigned i = 0; i < count; i++)
			if (!k[i].done)
				order[active++] = i;
		shuffle(order, active, &rng);
		more = false;
		for (unsigned i = 0; i < active; i++) {
			struct column *col = &k[order[i]];
			unsigned chunk = col->pairs < s->stop.min_pairs ? s->stop.min_pairs - col->pairs : MEASURE_PAIRS_CHUNK;
			double mean;
			add_pairs(s, c, col, chunk < MEASURE_PAIRS_CHUNK ? chunk : MEASURE_PAIRS_CHUNK, n, &rng, &mean);
			bytes += mean, batches++;
			col->done = column_done(&s->stop, col);
			more |= !col->done;
		}
	}
	r->mean_bytes = batches ? bytes / batches : 0;
	r->processes = 1;
	summarise(s, k, count, r);
	if (s->round_times)
		keep_round_times(s, k, count, r);
}

/* ---- several processes ---- */

static double median_of(const struct measure_result *each, unsigned n, size_t offset)
{
	double v[n];
	for (unsigned i = 0; i < n; i++)
		v[i] = *(const double *)((const char *)&each[i] + offset);
	return quantile(v, n, 0.5);
}

/* The ratio over the processes of one column (x, lo, hi at their offsets),
 * and whether their intervals fail to overlap. */
static bool combine_ratio(const struct measure_result *each, unsigned n, size_t x, size_t lo, size_t hi, double *ratio,
			  double *low, double *high)
{
	double least_high = 0, most_low = 0;
	*ratio = median_of(each, n, x);
	for (unsigned i = 0; i < n; i++) {
		double l = *(const double *)((const char *)&each[i] + lo), h = *(const double *)((const char *)&each[i] + hi);
		*low = i == 0 || l < *low ? l : *low;
		*high = i == 0 || h > *high ? h : *high;
		most_low = i == 0 || l > most_low ? l : most_low;
		least_high = i == 0 || h < least_high ? h : least_high;
	}
	return most_low > least_high;
}

void measure_combine(const struct measure_result *each, unsigned n, struct measure_result *out)
{
	*out = each[0];
	out->processes = n;
	out->mean_bytes = median_of(each, n, offsetof(struct measure_result, mean_bytes));
	for (unsigned v = 0; v < MEASURE_MAX_COLUMNS; v++) {
		out->median[v] = median_of(each, n, offsetof(struct measure_result, median) + v * sizeof(double));
		out->p10[v] = median_of(each, n, offsetof(struct measure_result, p10) + v * sizeof(double));
		out->p90[v] = median_of(each, n, offsetof(struct measure_result, p90) + v * sizeof(double));
		out->disagree[v] = combine_ratio(each, n, offsetof(struct measure_result, ratio) + v * sizeof(double),
						 offsetof(struct measure_result, ratio_low) + v * sizeof(double),
						 offsetof(struct measure_result, ratio_high) + v * sizeof(double), &out->ratio[v],
						 &out->ratio_low[v], &out->ratio_high[v]);
		for (unsigned i = 1; i < n; i++)
			out->pairs[v] += each[i].pairs[v];
	}
	out->disagree[MEASURE_MAX_COLUMNS] =
		combine_ratio(each, n, offsetof(struct measure_result, aa.ratio), offsetof(struct measure_result, aa.low),
			      offsetof(struct measure_result, aa.high), &out->aa.ratio, &out->aa.low, &out->aa.high);
	for (unsigned i = 1; i < n; i++)
		out->aa.pairs += each[i].aa.pairs;
}

/* In a forked child: the buffers were kept out of it (MADV_DONTFORK), so
 * it maps its own, on other physical pages, as large as c and its
 * placement's span need: a calibration's arena, sized for its curves,
 * takes a second to fault in. */
static bool buffers_of_its_own(const struct measure_settings *s, const struct measure_case *c)
{
	size_t span[PLACE_COUNT] = { 0, 0, MEASURE_L3_SETS * tool_cache_sizes()->l2, s->cold_bytes };
	arena = NULL;
	arena_size = 0;
	evict = NULL;
	return measure_buffers_init(case_max_size(c), span[c->place]);
}

void measure_run_processes(const struct measure_settings *s, const struct measure_case *c, unsigned processes,
			   struct measure_result *r)
{
	struct measure_result *each = processes > 1 ? mmap(NULL, processes * sizeof *each, PROT_READ | PROT_WRITE,
							    MAP_SHARED | MAP_ANONYMOUS, -1, 0) : MAP_FAILED;
	if (each == MAP_FAILED) { /* one process, or no memory for more: this one */
		measure_run(s, c, r);
		return;
	}
	unsigned done = 1;
	measure_run(s, c, &each[0]);
	for (; done < processes; done++) {
		fflush(NULL);
		pid_t pid = fork();
		if (pid == 0)
			_exit(buffers_of_its_own(s, c) ? (measure_run(s, c, &each[done]), 0) : 1);
		int status = 0;
		if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
			break; /* what the processes before measured stands */
	}
	measure_combine(each, done, r);
	munmap(each, processes * sizeof *each);
}
