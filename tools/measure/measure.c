/* The measuring engine (measure.h): placing the calls, timing them, and the statistics.
 *
 * One case is timed as batches: a pass over an array of prepared calls
 * (size, source, destination), repeated so that a hot batch lasts long
 * enough for the clock.  Each round prepares fresh calls and times one batch
 * of every variant on the same calls, the variants' order shuffled from round
 * to round so none always runs first; the report takes the median over the
 * rounds, which a busy neighbour on this shared machine moves far less than
 * a mean. */
#include "config.h"

#include "preload/histogram_format.h"
#include "shim/thresholds.h"
#include "tools/measure/caches.h"
#include "tools/measure/measure.h"
#include "tools/measure/round_stats.h"

#include <emmintrin.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096u
/* The most calls a pass draws.  A hot batch repeats its pass until it has
 * lasted batch_ns, and the branch predictors learn a pass of a few
 * thousand calls that they see again: glibc's size ladder then took half
 * the time it takes on sizes that do not repeat (BENCHMARKS.md section 25).
 * A pass of 16384 calls is more than they hold, and one of sizes to 1 KiB
 * lasts a batch or half of one (larger ones are bounded by
 * HOT_PASS_BYTES); its 192 KiB of table, read in order, still leave half
 * the L2 to an L2-resident case on a CPU with a 512 KiB L2. */
#define MAX_CALLS 16384u
/* A cold pass runs once a batch whatever its length, so it repeats nothing
 * with fewer calls, and each costs a flush of its lines. */
#define MAX_COLD_CALLS 4096u
/* A hot pass moves at most this much: enough calls to draw many sizes, few
 * enough that a pass of large calls stays short (halved from 16 MiB, with
 * the cold one, to keep the calibration within 30 s where the L3 is large
 * and sizes to 32 MiB are timed hot as well; BENCHMARKS.md section 18). */
#define HOT_PASS_BYTES (8u << 20)
/* A cold pass moves at most this much, flushed before it: bounded time and
 * memory whatever the size of the caches. */
#define COLD_PASS_BYTES (8u << 20)

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
		munmap(arena, arena_size);
	arena = NULL;
	arena_size = want;
	void *p = mmap(NULL, arena_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "memshim bench: cannot map %zu MiB of buffers: %s\n", arena_size >> 20,
			strerror(errno));
		return false;
	}
	arena = p;
	/* Kept out of any child the tool forks (the path trace's): a fork
	   write-protects every page the child shares, and until its first real
	   write each costs a fault, and each masked store with its bytes
	   masked off there a microcode assist, inside the timings. */
	madvise(arena, arena_size, MADV_DONTFORK);
	/* Every page faulted in now, so no fault lands inside a timing. */
	memset(arena, 0x11, arena_size);
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
	if (c->kind != CASE_ALIAS && c->dst_offset >= 0)
		dof += PAGE / 2;
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

/* Where the next call's room starts: hot calls all share the arena's
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
	size_t far = span - PAGE;
	call->size = (uint32_t)r->size;
	if (c->fn == FN_MEMSET) {
		call->src = call->dst = (uint32_t)(base + span + r->dst_off);
	} else if ((d < 0 ? -(uint64_t)d : (uint64_t)d) < far) {
		call->src = (uint32_t)(base + span + r->src_off);
		call->dst = (uint32_t)((int64_t)call->src + d);
	} else {
		call->src = (uint32_t)(base + r->src_off);
		call->dst = (uint32_t)(base + span + r->dst_off);
	}
}

/* Fills calls[0..n) with n recorded calls in their order, from a point
 * drawn at random (each round another part of the recording). */
static double prepare_replay(const struct measure_case *c, size_t n, uint64_t *rng)
{
	const struct replay_calls *p = c->replay;
	bool spread = c->cold || c->hot_set;
	size_t limit = c->cold || c->hot_set > arena_size ? arena_size : c->hot_set;
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

/* Fills calls[0..n): hot ones all in one room at the arena's start, or each
 * in its own room over the first hot_set bytes; cold ones each in its own
 * room, spread over the whole arena. */
static double prepare_calls(const struct measure_case *c, size_t n, uint64_t *rng)
{
	if (c->replay)
		return prepare_replay(c, n, rng);
	bool spread = c->cold || c->hot_set;
	size_t hot_span = span_for(case_max_size(c));
	size_t limit = c->cold || c->hot_set > arena_size ? arena_size : c->hot_set;
	size_t stride = limit / n / PAGE * PAGE, cursor = 0;
	double bytes = 0;
	for (size_t i = 0; i < n; i++) {
		struct call *call = &calls[i];
		call->size = (uint32_t)draw_size(c, rng);
		bool overlap = draws_overlap(c, rng);
		size_t span = spread ? span_for(call->size) : hot_span;
		size_t base = next_room(spread, (overlap ? 3 : 2) * span, stride, limit, &cursor);
		place(c, base, span, overlap, rng, call);
		bytes += call->size;
	}
	return bytes / (double)n;
}

/* How many calls a pass makes: many, to draw many sizes and offsets, but a
 * bounded number of bytes. */
static size_t calls_per_pass(const struct measure_case *c)
{
	double mean = c->replay ? c->replay->mean : c->dist ? c->dist->mean : (double)(c->lo + c->hi) / 2;
	double budget = c->cold ? COLD_PASS_BYTES : HOT_PASS_BYTES;
	size_t most = c->cold ? MAX_COLD_CALLS : MAX_CALLS;
	double n = mean > 0 ? budget / mean : most;
	return n < 1 ? 1 : n > most ? most : (size_t)n;
}

/* Every line of a cold pass's buffers leaves every cache level (and is
 * written back if dirty) before the pass: cold without a working set
 * larger than the caches, in time bounded by the pass's own bytes. */
static void flush_calls(size_t n)
{
	for (size_t i = 0; i < n; i++) {
		caches_flush(arena + calls[i].src, calls[i].size);
		caches_flush(arena + calls[i].dst, calls[i].size);
	}
	_mm_mfence(); /* orders CLFLUSHOPT too: every line is out before the pass starts */
}

/* ---- timing ---- */

/* noinline: each pass is a real loop of indirect calls, whatever the caller. */
__attribute__((noinline)) static void run_copies(copy_fn *f, size_t n, unsigned reps)
{
	for (unsigned r = 0; r < reps; r++)
		for (size_t i = 0; i < n; i++)
			f(arena + calls[i].dst, arena + calls[i].src, calls[i].size);
}

__attribute__((noinline)) static void run_sets(set_fn *f, size_t n, unsigned reps)
{
	for (unsigned r = 0; r < reps; r++)
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

/* The passes of read_back cases: each call, then a read of its destination. */
__attribute__((noinline)) static void run_copies_read(copy_fn *f, size_t n, unsigned reps)
{
	unsigned sum = 0;
	for (unsigned r = 0; r < reps; r++)
		for (size_t i = 0; i < n; i++) {
			f(arena + calls[i].dst, arena + calls[i].src, calls[i].size);
			sum += read_lines((const unsigned char *)arena + calls[i].dst, calls[i].size);
		}
	read_sink = sum;
}

__attribute__((noinline)) static void run_sets_read(set_fn *f, size_t n, unsigned reps)
{
	unsigned sum = 0;
	for (unsigned r = 0; r < reps; r++)
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
__attribute__((noinline)) static void run_banded(const struct measure_bands *b, enum base_function fn, size_t n,
						 unsigned reps)
{
	for (unsigned r = 0; r < reps; r++)
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
 * its share of a stream; f NULL: the fences alone, subtracted after. */
__attribute__((noinline)) static void run_fenced(const struct measure_variant *v, enum base_function fn, size_t n,
						 unsigned reps)
{
	const struct measure_bands *b = v ? v->bands[fn] : NULL;
	for (unsigned r = 0; r < reps; r++)
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

static void run_pass(const struct measure_variant *v, const struct measure_case *c, size_t n, unsigned reps)
{
	if (c->fenced) {
		run_fenced(v, c->fn, n, reps);
		return;
	}
	if (v->bands[c->fn])
		run_banded(v->bands[c->fn], c->fn, n, reps);
	else if (c->fn == FN_MEMSET)
		(c->read_back ? run_sets_read : run_sets)(v->set, n, reps);
	else
		(c->read_back ? run_copies_read : run_copies)(v->copy[c->fn], n, reps);
}

/* A pass is never cut below this many calls, to draw many sizes. */
#define MIN_PASS_CALLS 1024u

/* Repetitions that make a hot batch last about s->batch_ns (one for cold:
 * a repeated cold pass would find its data in the cache).  A pass that
 * lasts longer than a batch is cut to the calls that fill one, *n, and
 * runs once: what a batch needs, and no call repeated within it (MAX_CALLS
 * says why that matters). */
static unsigned calibrate(const struct measure_settings *s, const struct measure_case *c, size_t *n)
{
	if (c->cold)
		return 1;
	const struct measure_variant *g = &s->variants[s->glibc];
	run_pass(g, c, *n, 1); /* brings the buffers and the code in */
	uint64_t start = monotonic_ns();
	run_pass(g, c, *n, 1);
	double pass = (double)(monotonic_ns() - start);
	if (pass > s->batch_ns && *n > MIN_PASS_CALLS) {
		double fit = (double)*n * s->batch_ns / pass;
		*n = fit < MIN_PASS_CALLS ? MIN_PASS_CALLS : (size_t)fit;
		return 1;
	}
	double reps = pass > 0 ? s->batch_ns / pass : 1000;
	return reps < 1 ? 1 : reps > 100000 ? 100000 : (unsigned)reps;
}

/* Before a hot batch, one read of every line its calls touch: each
 * variant then starts with its data in the cache, as "hot" says, not as the
 * variant timed before it left it.  Without it, a variant timed after one
 * with non-temporal stores found the destination evicted, and paid for
 * that variant's stores (BENCHMARKS.md, section 11).  A read costs less
 * than running the pass. */
static void bring_in(const struct measure_case *c, size_t n)
{
	unsigned sum = 0;
	for (size_t i = 0; i < n; i++) {
		sum += read_lines((const unsigned char *)arena + calls[i].dst, calls[i].size);
		if (c->fn != FN_MEMSET)
			sum += read_lines((const unsigned char *)arena + calls[i].src, calls[i].size);
	}
	read_sink = sum;
}

/* Calls run untimed before a hot batch, after another column's code: at
 * most SETTLING_CALLS, and none past SETTLING_BYTES.  A call of a MiB or
 * more lasts long enough that what the predictors hold is lost in its time,
 * while running it once more took a sixth of a calibration's time
 * (BENCHMARKS.md section 23). */
#define SETTLING_CALLS 256
#define SETTLING_BYTES (1u << 20)

static size_t settling_calls(size_t n)
{
	size_t k = 0, bytes = 0;
	while (k < n && k < SETTLING_CALLS && (bytes += calls[k].size) <= SETTLING_BYTES)
		k++;
	return k;
}

static double time_batch(const struct measure_settings *s, const struct measure_variant *v,
			 const struct measure_case *c, size_t n, unsigned reps)
{
	if (!c->cold) { /* the data in, and a few calls to settle what the code before left */
		bring_in(c, n);
		size_t settling = settling_calls(n);
		if (settling)
			run_pass(v, c, settling, 1);
	}
	if (v->thresholds)
		memshim_thresholds = *v->thresholds;
	if (v->set_thresholds) /* a variant in the library reads the library's */
		v->set_thresholds(memshim_thresholds.erms, memshim_thresholds.stosb, memshim_thresholds.auto_movsb,
				  memshim_thresholds.auto_stosb, memshim_thresholds.nt);
	uint64_t start = measure_clock_now(&s->clock);
	run_pass(v, c, n, reps);
	uint64_t end = measure_clock_now(&s->clock);
	double t = (double)(end - start);
	if (c->fenced) { /* the fences' own time off, measured beside */
		start = measure_clock_now(&s->clock);
		run_pass(NULL, c, n, reps);
		t -= (double)(measure_clock_now(&s->clock) - start);
	}
	return t / ((double)n * reps);
}

/* ---- statistics ---- */

/* A cold pass of large calls holds only a call or two (COLD_PASS_BYTES), and
 * one call's ratio to glibc's swings widely, so that a few rounds can put a
 * variant's median on the wrong side of glibc's (BENCHMARKS.md section 6,
 * "Later the same day").  Such cases get FEW_CALLS_FACTOR
 * times the rounds, unless the caller keeps each round's times
 * (round_times has room for s->rounds only). */
#define FEW_CALLS 4
#define FEW_CALLS_FACTOR 3

unsigned measure_rounds_with_few_calls(const struct measure_settings *s)
{
	unsigned more = s->rounds * FEW_CALLS_FACTOR;
	return s->round_times ? s->rounds : more < MEASURE_MAX_ROUNDS ? more : MEASURE_MAX_ROUNDS;
}

static unsigned rounds_for(const struct measure_settings *s, const struct measure_case *c, size_t n)
{
	return c->cold && n < FEW_CALLS ? measure_rounds_with_few_calls(s) : s->rounds;
}

/* The columns' order in a round: shuffled afresh each round, not rotated.
 * A batch runs slower after a batch of other code than after one of the
 * same function (the branch predictors, presumably), and rotation keeps
 * every column behind the same neighbour: glibc's, behind a column that
 * also runs glibc's code (the stub probe, the default where it is glibc's,
 * a libc peer), ran faster than its twin beside it (BENCHMARKS.md section
 * 17).  Shuffled, each column follows each other as often. */
static void shuffled_order(unsigned *order, unsigned n, uint64_t *rng)
{
	for (unsigned i = 0; i < n; i++)
		order[i] = i;
	for (unsigned i = n; i > 1; i--) {
		unsigned j = (unsigned)(measure_random(rng) % i), t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
}

void measure_run(const struct measure_settings *s, const struct measure_case *c, struct measure_result *r)
{
	static double t[MEASURE_MAX_COLUMNS][MEASURE_MAX_ROUNDS];
	size_t n = calls_per_pass(c);
	unsigned rounds = rounds_for(s, c, n);
	uint64_t rng = 0x6d656d7368696dull ^ ((uint64_t)c->fn << 56) ^ ((uint64_t)c->kind << 48) ^ c->lo ^
		       ((uint64_t)c->hi << 20);
	double bytes = 0;
	unsigned reps = 1;
	for (unsigned round = 0; round < rounds; round++) {
		/* Fresh sizes and offsets each round: more of the distribution seen. */
		double mean = prepare_calls(c, n, &rng);
		if (round == 0) {
			size_t drawn = n;
			reps = calibrate(s, c, &n);
			if (n < drawn) /* drawn again, so that spread calls cover all their span */
				mean = prepare_calls(c, n, &rng);
		}
		bytes += mean;
		unsigned order[MEASURE_MAX_COLUMNS];
		shuffled_order(order, s->variant_count, &rng);
		for (unsigned k = 0; k < s->variant_count; k++) {
			unsigned v = order[k];
			if (!measure_variant_has(&s->variants[v], c->fn)) {
				t[v][round] = 0; /* the report leaves it out */
				continue;
			}
			if (c->cold)
				flush_calls(n);
			t[v][round] = time_batch(s, &s->variants[v], c, n, reps);
		}
	}
	r->c = *c;
	r->rounds = rounds;
	r->mean_bytes = bytes / rounds;
	for (unsigned v = 0; s->round_times && v < s->variant_count; v++)
		memcpy(s->round_times + v * s->rounds, t[v], s->rounds * sizeof t[v][0]);
	for (unsigned v = 0; v < s->variant_count; v++) {
		struct round_summary m = round_summarise(t[v], t[s->glibc], rounds);
		r->median[v] = m.median, r->p10[v] = m.p10, r->p90[v] = m.p90;
		r->ratio[v] = m.ratio, r->ratio_low[v] = m.ratio_low, r->ratio_high[v] = m.ratio_high;
	}
}
