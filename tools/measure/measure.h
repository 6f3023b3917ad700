/* The measuring engine of memshim bench, tune's calibration and cpu-row:
 * each variant paired with glibc on the same calls, batch against batch,
 * until the median of the pairs' ratios is known to the precision asked.
 *
 * A case is one thing to time (a function, where its sizes come from,
 * where its data lives); every variant of the settings is compared with
 * glibc in it, and glibc with itself (the A/A arm, the instrument's own
 * noise), and gives one result. */
#ifndef MEMSHIM_MEASURE_H
#define MEMSHIM_MEASURE_H

#include "dispatch/bands.h"
#include "dispatch/variants.h"
#include "tools/measure/clock.h"
#include "tools/measure/placement.h"
#include "tools/measure/size_dist.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MEASURE_MAX_VARIANTS 24 /* of the library */
#define MEASURE_MAX_PEERS 4     /* other libraries' functions, beside them (--peer) */
#define MEASURE_MAX_COLUMNS (MEASURE_MAX_VARIANTS + MEASURE_MAX_PEERS)

/* What a case measures; the order is the order of the report.  Replay
 * (bench --replay) comes last: --cases does not name it.  Hazard: a case
 * of the hazard catalogue (tools/util/hazards.h). */
enum case_kind { CASE_SWEEP, CASE_ALIGN, CASE_ALIAS, CASE_CLASS, CASE_DIST, CASE_HAZARD, CASE_REPLAY, CASE_KIND_COUNT };


struct seq_call;
struct thresholds;

/* Recorded calls replayed in order (tools/measure/replay.h): sizes, offsets
 * mod 4096, distances. */
struct replay_calls {
	struct seq_call *calls;
	size_t count;
	double mean; /* bytes per call */
	size_t max;
};

struct measure_case {
	enum base_function fn;
	enum case_kind kind;
	enum placement place;
	bool read_back; /* each call's destination read after it, in the timing */
	bool in_use;    /* each call's source written just before it and its destination read after it */
	bool overlap;   /* memmove with overlapping source and destination */
	bool fenced;    /* each call alone between fences, as a timed call (MEMSHIM_TIMING) runs */
	char label[64]; /* the size ("4096"), class ("257 B-1 KiB") or distribution name */
	char align[16]; /* "s1/d0" (offsets mod 64), "4k+16" (dst - src mod 4096), "random" */
	/* Sizes: uniform in [lo, hi], or drawn from dist when it is set. */
	size_t lo, hi;
	const struct size_dist *dist;
	const struct replay_calls *replay; /* set: the calls come from here, in order, instead */
	/* Offsets of source and destination from a 4 KiB boundary; -1: random. */
	int src_offset, dst_offset;
	/* Set: dst_offset - src_offset is (dst - src) mod 4096 itself; else the
	 * destination lies half a page further, far from 4 KiB aliasing. */
	bool exact_distance;
	/* Above 0: memmove forward onto its own source, dst = src + gap. */
	int gap;
};

/* The variants under test, called through pointers into the dlopen'ed
 * library, and the peers: another library's functions, called the same way. */
typedef void *copy_fn(void *, const void *, size_t);
typedef void *set_fn(void *, int, size_t);

/* Size bands of a setting (tune --impl): each call goes to the band its
 * size falls in, as the exported stub sends it. */
struct measure_bands {
	unsigned count;
	size_t upper[MAX_BANDS];
	copy_fn *copy[MAX_BANDS];
	set_fn *set[MAX_BANDS];
};

struct measure_variant {
	const char *name;
	copy_fn *copy[FN_COUNT]; /* memcpy and memmove; NULL for memset */
	set_fn *set;
	const char *peer_file;   /* a peer's library; NULL for a variant of memshim's */
	const struct measure_bands *bands[FN_COUNT]; /* set: calls go by size to these instead */
	/* set: this variant runs with these thresholds, not the settings' */
	const struct thresholds *thresholds;
	/* set: the variant is the library's (tools/measure/library.h), and
	 * this passes it the thresholds to run with before each batch (NULL:
	 * those it resolved at start-up) */
	void (*install_thresholds)(const struct thresholds *t);
};

/* A peer may lack a function: it is then left out of that function's cases. */
static inline bool measure_variant_has(const struct measure_variant *v, enum base_function fn)
{
	return fn == FN_MEMSET ? v->set != NULL : v->copy[fn] != NULL;
}

/* When a column stops adding pairs: at the first look (every
 * MEASURE_PAIRS_CHUNK pairs, from min_pairs on) whose interval is narrower
 * than `width` times the ratio, or once it has taken `seconds` or max_pairs.
 * min_pairs == max_pairs: exactly that many pairs, whatever the interval. */
struct measure_stop {
	double width;   /* 0.01: an interval within +-0.5% */
	double seconds; /* per column and case */
	unsigned min_pairs, max_pairs;
};
#define MEASURE_MAX_PAIRS 1001
#define MEASURE_PAIRS_CHUNK 20
/* bench's: the 1% instrument (tools/measure/measure.c says how it gets there). */
#define MEASURE_STOP_DEFAULT ((struct measure_stop){ .width = 0.01, .seconds = 3.0, .min_pairs = 40, .max_pairs = 801 })

struct measure_settings {
	const struct measure_variant *variants;
	unsigned variant_count;
	unsigned glibc; /* index of the baseline in variants */
	struct measure_stop stop;
	bool aa;              /* time the A/A arm too: glibc against itself */
	/* the thresholds the library's variants run with, where a variant
	 * names none of its own; NULL: the library's own, from its start-up */
	const struct thresholds *thresholds;
	size_t cold_bytes;    /* the span cold calls are spread over (measure_cold_span) */
	struct measure_clock clock;
	char pinning[80];     /* "pinned to CPU 1", or why not */
	/* If set (with min_pairs == max_pairs), measure_run also keeps each
	 * pair's time per call here, at [variant * max_pairs + pair]: a
	 * variant's as glibc's median time times that pair's ratio, glibc's as
	 * its median (memshim tune's spread needs them). */
	double *round_times;
};

/* One column's comparison with glibc: the median of the per-pair ratios
 * (< 1: faster than glibc) and about 95% for it, from the order statistics
 * of the ratios (distribution-free; min..max with fewer than 9 pairs). */
struct measure_ratio {
	double ratio, low, high;
	unsigned pairs;
};

struct measure_result {
	struct measure_case c;
	unsigned rounds;   /* the most pairs any column took */
	double mean_bytes; /* bytes per call, averaged over every call timed */
	/* Each column's time per call over its batches; glibc's over all of its own. */
	double median[MEASURE_MAX_COLUMNS], p10[MEASURE_MAX_COLUMNS], p90[MEASURE_MAX_COLUMNS];
	double ratio[MEASURE_MAX_COLUMNS]; /* struct measure_ratio's, column by column */
	double ratio_low[MEASURE_MAX_COLUMNS], ratio_high[MEASURE_MAX_COLUMNS];
	unsigned pairs[MEASURE_MAX_COLUMNS];
	struct measure_ratio aa; /* glibc against itself (pairs 0 where not timed) */
	/* Measured in this many processes (measure_combine); where their
	 * intervals for a column do not overlap, disagree says so (the A/A
	 * arm's at MEASURE_MAX_COLUMNS). */
	unsigned processes;
	bool disagree[MEASURE_MAX_COLUMNS + 1];
};

/* One result from the same case measured in n processes, each with its own
 * buffers (so its own physical pages and cache sets): each ratio the median
 * of theirs, its interval from the least lower end to the greatest upper
 * one, so that it covers what one process alone hides; the times the
 * median of theirs. */
void measure_combine(const struct measure_result *each, unsigned n, struct measure_result *out);

/* measure_run in `processes` processes, one after the other: this one, then
 * forked ones, each with buffers of its own (so its own physical pages),
 * combined by measure_combine.  A process that fails ends the series: the
 * result is then the processes' before it. */
void measure_run_processes(const struct measure_settings *s, const struct measure_case *c, unsigned processes,
			   struct measure_result *r);

/* How far the A/A arm of r strays from 1: the largest |1 - x| over its
 * ratio and interval bounds (0 where it was not timed). */
double measure_aa_deviation(const struct measure_result *r);

/* The span cold calls are spread over: twice the last-level cache, at most
 * MEASURE_COLD_SPAN_MAX.  Cold data is flushed from the caches, not pushed out
 * by a working set larger than them, so a bigger span buys nothing but
 * memory and time on a machine with a large L3. */
#define MEASURE_COLD_SPAN_MAX (64u << 20)
size_t measure_cold_span(void);
/* Maps and touches the buffer every case uses (once: again only where a
 * later call needs more); false (and a message) if it cannot. */
bool measure_buffers_init(size_t largest_size, size_t cold_bytes);
void measure_run(const struct measure_settings *s, const struct measure_case *c, struct measure_result *r);

/* A small, fast, reproducible random generator (splitmix64). */
static inline uint64_t measure_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif
