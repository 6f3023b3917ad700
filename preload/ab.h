/* In-process A/B (MEMSHIM_AB=A/B, with recording): each thread's calls are
 * served from setting A or setting B in alternating blocks of
 * MEMSHIM_AB_BLOCK calls, the order within each pair of blocks drawn at
 * random, and every call is timed with the time-stamp counter as a timed
 * call is (preload/timing.h).  A pair of blocks is one observation of B
 * against A: both ran in the same phase of the same thread of the same
 * process, so what moves a whole run (where its memory landed, the
 * machine's slow spells) moves both.  Completed pairs go to one store for
 * the process; when it fills, neighbouring pairs are added together and
 * blocks made twice as long, so a long run keeps a bounded store.  The
 * dump writes each pair by function and size class (preload/
 * dump/format.h); memshim ab --in-process reads them.
 *
 * The wrappers are recording's (preload/record_wrappers.h with AB 1): the
 * call is recorded, then AB_CALL times arm A's or B's function.  Both arms
 * pay the same recording and timer; the timer's cost is measured beside the
 * calls (an empty timed region at each block's start) and subtracted. */
#ifndef MEMSHIM_AB_H
#define MEMSHIM_AB_H

#include "dump/format.h"
#include "preload/timing.h"
#include "shim/entry_set.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A thread's state: its arm, the calls left in its block, and its pair's counts. */
struct ab_thread {
	unsigned arm;  /* 0: A, 1: B */
	unsigned left; /* calls left in this block; 0: the next call starts a block */
	unsigned block; /* of its pair: 1 the first, 2 the second; 0: none yet */
	bool busy;     /* in ab's own code: a signal handler's calls go untimed */
	uint64_t calls[2][FN_COUNT][AB_PAIR_CLASSES];
	uint64_t ticks[2][FN_COUNT][AB_PAIR_CLASSES];
};

/* Arm A's and arm B's functions, one member per entry point. */
extern struct entry_set ab_sets[2];

/* Sets fn's entry points of ab_sets from a and b. */
void ab_set_arms(enum base_function fn, const struct entry_set *a, const struct entry_set *b);

/* The thread's state with its arm for this call, or NULL: this call goes
 * untimed to the recording's target (not started, or ab's own code). */
struct ab_thread *ab_enter(void);

/* Counts the call of fn, n bytes, that took `ticks`, into t's block. */
void ab_leave(struct ab_thread *t, enum base_function fn, size_t n, uint64_t ticks);

/* Starts timing; false (said) if the counter cannot time calls here. */
bool ab_start(void);

/* Writes the A/B records of the dump; nothing when A/B is off.
 * Async-signal-safe. */
bool ab_write(int fd);

/* In a forked child: forget the parent's pairs. */
void ab_restart_in_child(void);

/* The call `m args` of arm A's or B's set, timed; the recording's target
 * where the call goes untimed. */
#define AB_CALL(fn, n, m, args)                                                                    \
	({                                                                                             \
		struct ab_thread *t_ = ab_enter();                                                         \
		__typeof__(target.m args) r_;                                                              \
		if (__builtin_expect(t_ != NULL, 1)) {                                                     \
			__typeof__(target.m) f_ = ab_sets[t_->arm].m;                                          \
			uint64_t start_ = timing_start();                                                      \
			r_ = f_ args;                                                                          \
			ab_leave(t_, fn, n, timing_end() - start_);                                            \
		} else {                                                                                   \
			r_ = target.m args;                                                                    \
		}                                                                                          \
		r_;                                                                                        \
	})

#define AB_CALL_VOID(fn, n, m, args)                                                               \
	do {                                                                                           \
		struct ab_thread *t_ = ab_enter();                                                         \
		if (__builtin_expect(t_ != NULL, 1)) {                                                     \
			__typeof__(target.m) f_ = ab_sets[t_->arm].m;                                          \
			uint64_t start_ = timing_start();                                                      \
			f_ args;                                                                               \
			ab_leave(t_, fn, n, timing_end() - start_);                                            \
		} else {                                                                                   \
			target.m args;                                                                         \
		}                                                                                          \
	} while (0)

#endif
