/* Timed calls (MEMSHIM_TIMING): one call in N, on average, timed with the
 * time-stamp counter around the variant, by function and size bucket (and
 * by immediate caller where call sites are on).
 *
 * The profiler samples the CPU clock, which the kernel's tick caps at a few
 * hundred samples a second; a program making millions of calls a second
 * gives thousands of timed calls a second instead.  The recording wrapper's
 * common path only counts down to the next timed call (preload/record.c); the
 * timed call takes the slow path, which reads the counter before and after
 * the variant.  Each read is fenced (lfence: everything before has finished,
 * nothing after has started), so a timed call runs alone: its time is the
 * call's latency, not its share of a stream of overlapping calls
 * (D36 has that difference by size class).  The
 * timer's own cost is subtracted when the dump is written: the median of
 * empty timed regions, one after every eighth timed call or so, so that it
 * is measured in the same state of the core (its clock, its caches) as the
 * calls; of those at start-up where a run has too few.  A timed call longer
 * than 2 us plus 1 ns a byte was interrupted (a tick, a page fault, a
 * preemption, the machine's host taking the CPU): it is counted apart, not
 * in the time.  One
 * such call among thousands of short ones would otherwise be a large part
 * of their sum, and shake the mean from run to run; so the time per call
 * is that of calls running uninterrupted.
 *
 * The counter must tick at one rate whatever the CPU's clock does
 * (invariant TSC, CPUID 0x80000007); its rate comes from CPUID 0x15 or 0x16,
 * else from CLOCK_MONOTONIC_RAW, against which it is measured from start-up
 * to each dump. */
#ifndef MEMSHIM_TIMING_H
#define MEMSHIM_TIMING_H

#include "dump/counts.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A thread's timed calls, kept in its recording slot. */
struct timing_counts {
	uint64_t calls[FN_COUNT][HIST_BUCKETS];       /* timed calls kept */
	uint64_t ticks[FN_COUNT][HIST_BUCKETS];       /* their ticks, the timer's own cost included */
	uint64_t squares[FN_COUNT][HIST_BUCKETS][2];  /* the sum of their squared ticks: low, high word */
	uint64_t dropped[FN_COUNT][HIST_BUCKETS];     /* timed calls left out as interrupted */
};

/* The counter at the start of a timed region. */
static inline __attribute__((always_inline)) uint64_t timing_start(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

/* The counter at its end. */
static inline __attribute__((always_inline)) uint64_t timing_end(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

/* Checks the counter, measures the timer's own cost and notes the time:
 * from the constructor.  False, said in one line, when calls cannot be
 * timed here. */
bool timing_start_up(unsigned every);

/* Checks the counter, measures its rate and the timer's own cost: the
 * part of timing_start_up that the in-process A/B (preload/ab.h) shares.
 * False, said in one line starting with `variable`, when calls cannot be
 * timed here. */
bool timing_clock_start(const char *variable);

/* Whether a timed region of n bytes that took `ticks` was interrupted
 * (longer than 2 us + 1 ns a byte): such a call is left out. */
bool timing_interrupted(uint64_t ticks, size_t n);

/* The ns a tick now. */
double timing_ns_per_tick(void);

/* Measures one empty timed region beside the calls, for the timer's cost. */
void timing_count_empty_region(void);

/* The timer's own cost in ticks: the median of the empty regions measured
 * beside the calls, or of those at start-up where there were too few. */
double timing_overhead_ticks(void);

/* A random number of this thread's (xorshift32, seeded from the counter). */
uint32_t timing_random(void);

/* Calls up to the next timed one: 1 to 2N-1 at random, N on average, so
 * that a program whose calls repeat with a period does not always have the
 * same one timed.  From the recording's slow path. */
unsigned timing_countdown(void);

/* Counts a timed call of fn, n bytes (bucket b), that took `ticks`, into c
 * (shared: c is the overflow slot of several threads).  `caller`: its
 * return address, with call sites on; else NULL.  Async-signal-safe. */
void timing_count(struct timing_counts *c, bool shared, enum base_function fn, unsigned b, size_t n,
                  uint64_t ticks, void *caller);

/* Adds `from` (another thread's, still counting) into `to`. */
void timing_add(struct timing_counts *to, const struct timing_counts *from);

/* Says that timing stopped: the program forbade itself the counter. */
void timing_say_forbidden(void);

/* In a forked child: forget the parent's callers. */
void timing_restart_in_child(void);

/* Writes the timing records of the dump for the counts `sum`; nothing when
 * timing is off.  Async-signal-safe. */
bool timing_write(int fd, const struct timing_counts *sum);

#endif
