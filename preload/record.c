/* The recording wrappers: they count each call into the thread's slot
 * (preload/record_slots.h; preload/record_dump.c adds the slots up for the dump).
 *
 * Each thread counts into a slot of its own, claimed on its first call
 * with one atomic add and never given back, so counts of threads
 * that have ended are still there at the dump.  Counters are bumped with a
 * single add-to-memory instruction: no other thread writes the slot, and a
 * signal handler running on the same thread can only come between two
 * instructions, so no update is lost and no lock is taken.  Past MAX_SLOTS
 * threads, later threads share one slot with atomic adds: slower, still exact.
 *
 * A call writes one counter: its entry point's word for its size bucket
 * (the slot's front), its bytes and its group's calls together, and tests
 * nothing of it but the add's carry.  Where the copies' data is cold the
 * core overlaps as many calls' misses as its window holds calls, and every
 * instruction, counter and unpredictable branch the wrapper adds shrinks
 * that: so the alignments are counted for one call in HIST_ALIGN_EVERY
 * (the first of each group of a word's calls, from a phase drawn at
 * random), 4 KiB aliasing for the copies from 2 KiB, which find their
 * bucket by arithmetic anyway, and the size bucket below that is one load
 * from a small table (preload/call_buckets.h).  The CPU pages
 * (data/cpu-rows/measurements/) give what each part cost.
 *
 * Besides the size against the table's end and the carry, the common path
 * takes one branch for all that is rare: the thread's slot for the common
 * path is NULL where every call must take the slow path
 * (the first call of a thread, the shared slot, call-site sampling,
 * start-up not done).  Where calls are timed (MEMSHIM_TIMING, one in N),
 * the wrappers are another set, which also counts down the calls to the
 * thread's next timed one: the untimed wrappers pay nothing for it.
 *
 * The recording path allocates nothing and calls nothing that may copy
 * (malloc, stdio and the unwinder all call memcpy).  Its code lies in
 * sections of its own (RECORDING_CODE), so that the profiler counts the
 * time spent there apart from the copies'. */
#include "preload/record.h"

#include "dispatch/config.h"
#include "preload/ab.h"
#include "preload/call_buckets.h"
#include "preload/callsites.h"
#include "preload/profile.h"
#include "preload/record_slots.h"
#include "preload/recording_code.h"
#include "preload/timing.h"

#include <limits.h>
#include <stdbool.h>

struct slot record_slots[MAX_SLOTS + 1];
unsigned record_slots_claimed;
bool record_timing_counted;
static __thread struct slot *my_slot __attribute__((tls_model("initial-exec")));
/* my_slot where the common path may take it, else NULL: the common path's one test. */
static __thread struct slot *my_fast_slot __attribute__((tls_model("initial-exec")));
/* The chosen variant's functions, one member per function that follows fn;
 * copied member by member so a call needs one load, not two. */
static struct entry_set target;
static unsigned sample_every; /* 0: no call-site sampling */
static unsigned timing_every; /* 0: no timed calls */
static unsigned sequence_length; /* 0: no windows of calls */
static bool started;          /* start-up has set the two above: the common path may be taken */
/* This thread's calls up to its next timed one, counted on the slow path;
 * and the run of calls the common path's countdown last started from. */
static __thread unsigned calls_to_timed __attribute__((tls_model("initial-exec")));
static __thread unsigned detour_run __attribute__((tls_model("initial-exec")));

/* The recording path is a handful of instructions inlined into each wrapper. */
#define HOT static inline __attribute__((always_inline))

RECORDING_CODE(shared) static struct slot *claim_slot(void)
{
	unsigned i = __atomic_fetch_add(&record_slots_claimed, 1, __ATOMIC_RELAXED);
	struct slot *s = i < MAX_SLOTS ? &record_slots[i] : &record_slots[MAX_SLOTS];
	s->shared = i >= MAX_SLOTS;
	s->sample_countdown = sample_every;
	s->detour = 1;
	s->draws = (uintptr_t)s; /* any start: the draws only need to be unrelated to the program's copies */
	my_slot = s;
	profile_thread_start(); /* after my_slot: it may call malloc, whose copies count here */
	return s;
}

/* One add-to-memory instruction: a signal cannot split it.  The shared
 * overflow slot, reached by several threads, needs the lock prefix. */
HOT void bump(bool shared, uint64_t *counter, uint64_t n)
{
	if (__builtin_expect(shared, 0))
		__atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
	else
		__asm__("addq %1, %0" : "+m"(*counter) : "er"(n));
}

/* The common case: the thread's slot for the common path, and, in the
 * timed wrappers, its countdown to the next detour not run out.
 * Everything else takes record_copy_slow / record_set_slow. */
HOT struct slot *fast_slot(bool timed)
{
	struct slot *s = my_fast_slot;
	if (!timed)
		return s;
	return __builtin_expect(s != NULL && --s->detour != 0, 1) ? s : NULL;
}

HOT void maybe_sample(struct slot *s, enum base_function fn, size_t n)
{
	if (__builtin_expect(sample_every == 0, 1))
		return;
	if (s->sample_countdown-- > 1)
		return;
	s->sample_countdown = sample_every;
	callsites_sample(fn, n);
}

/* A front word's bytes move to the histogram at a sampled call from 2^54
 * on: a group's 256 calls add less than 2^42, so the bytes never reach the
 * calls' part. */
#define FRONT_BYTES_FULL (1ull << 54)
_Static_assert(HIST_ALIGN_EVERY == 1ull << (64 - 56), "a sample each group of a word's calls");

/* Counts a call into *p in one instruction (a signal cannot split it): its
 * bytes up, its group's calls to come down; true when none were to come,
 * as the borrow (no carry out of the word) says: no load after the add
 * and no test of a value, which cost a cold copy more than the add. */
HOT bool count_down_group(bool shared, uint64_t *p, size_t n)
{
	uint64_t inc = n - FRONT_CALL; /* mod 2^64 */
	if (__builtin_expect(shared, 0))
		return __atomic_fetch_add(p, inc, __ATOMIC_RELAXED) / FRONT_CALL == 0;
	bool carry;
	__asm__("addq %2, %0" : "+m"(*p), "=@ccc"(carry) : "r"(inc));
	return !carry;
}

/* A number drawn for the thread (splitmix64 over the slot's own state):
 * where a word's groups begin, which nothing in the program then sets. */
static unsigned draw(struct slot *s)
{
	uint64_t z = s->draws += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (unsigned)(z ^ (z >> 31));
}

/* The calls of a group, counted in the histogram when it begins (the dump
 * takes off those still to come: preload/record_dump.c). */
static void count_group(struct slot *s, struct function_histogram *f, enum entry_point e, bool zero, unsigned b,
                        uint64_t calls)
{
	bump(s->shared, &f->calls[b], calls);
	bump(s->shared, &s->hist.entry_calls[e], calls);
	if (zero)
		bump(s->shared, &f->zero_calls, calls);
}

static void count_bytes(struct slot *s, struct function_histogram *f, bool zero, unsigned b, uint64_t bytes)
{
	bump(s->shared, &f->bytes[b], bytes);
	if (zero)
		bump(s->shared, &f->zero_bytes, bytes);
}

/* A call of a size past the front's buckets: straight into the histogram;
 * sampled as a front word's call would be, by the bucket's count. */
RECORDING_CODE(shared) __attribute__((noinline, cold)) static bool
count_huge(struct slot *s, enum entry_point e, bool zero, unsigned b, size_t n)
{
	struct function_histogram *f = &s->hist.fn[entry_point_base[e]];
	count_group(s, f, e, zero, b, 1);
	count_bytes(s, f, zero, b, n);
	return __atomic_load_n(&f->calls[b], __ATOMIC_RELAXED) % HIST_ALIGN_EVERY == 0;
}

/* What every call records: its size, entry point and (memset) whether it
 * writes zeros, in one front word (or the histogram, past the front).
 * True when the call is sampled: record_sampled's part is left to do. */
HOT bool count_call(struct slot *s, bool shared, enum entry_point e, bool zero, size_t n, unsigned b)
{
	if (__builtin_expect(b >= FRONT_BUCKETS, 0))
		return count_huge(s, e, zero, b, n);
	return __builtin_expect(count_down_group(shared, &s->front[zero][e][b], n), 0);
}

/* A sampled call's part.  A word's first call (it finds no bytes: a word
 * of empty calls finds none ever, and its calls go unsampled) starts its
 * groups at a phase drawn at random, so that every call, of a size called
 * once or a million times, is sampled with chance 1 in HIST_ALIGN_EVERY;
 * the first call of each later group has its alignment counted.  The
 * word's bytes move to the histogram when they are many.  Out of line, so
 * that the common path saves no register for it. */
RECORDING_CODE(shared) __attribute__((noinline, cold)) static void
record_sampled(struct slot *s, enum entry_point e, bool zero, unsigned b, const void *d, const void *src, size_t n)
{
	struct function_histogram *f = &s->hist.fn[entry_point_base[e]];
	uint64_t *word = &s->front[zero][e][b];
	if (b < FRONT_BUCKETS && (__atomic_load_n(word, __ATOMIC_RELAXED) & FRONT_BYTES) == n) {
		unsigned to_come = draw(s) % HIST_ALIGN_EVERY;
		__atomic_fetch_sub(word, (HIST_ALIGN_EVERY - 1 - to_come) * FRONT_CALL, __ATOMIC_RELAXED);
		count_group(s, f, e, zero, b, to_come + 1);
		return;
	}
	bump(s->shared, &f->dst_mod64[(uintptr_t)d & 63], 1);
	if (entry_point_base[e] != FN_MEMSET)
		bump(s->shared, &f->delta_mod64[((uintptr_t)d - (uintptr_t)src) & 63], 1);
	if (b >= FRONT_BUCKETS)
		return; /* counted already */
	count_group(s, f, e, zero, b, HIST_ALIGN_EVERY);
	if ((__atomic_load_n(word, __ATOMIC_RELAXED) & FRONT_BYTES) < FRONT_BYTES_FULL)
		return;
	count_bytes(s, f, zero, b, __atomic_fetch_and(word, ~FRONT_BYTES, __ATOMIC_RELAXED) & FRONT_BYTES);
}

/* A copy within the 4 KiB-aliasing window: where in it, and how large. */
static inline void record_alias(bool shared, struct function_histogram *f,
                                uintptr_t distance, size_t n)
{
	if (distance == 0) {
		bump(shared, &f->alias_same_calls, 1);
		bump(shared, &f->alias_same_bytes, n);
		return;
	}
	bump(shared, &f->alias_near_calls, 1);
	bump(shared, &f->alias_near_bytes, n);
	if (n >= HIST_ALIAS_LARGE) {
		bump(shared, &f->alias_near_large_calls, 1);
		bump(shared, &f->alias_near_large_bytes, n);
	}
}

/* Records a copy but for a sampled call's part: true when it is one. */
HOT bool record_copy_in(struct slot *s, bool shared, enum base_function fn, enum entry_point e, const void *d,
                        const void *src, size_t n, unsigned b)
{
	struct function_histogram *f = &s->hist.fn[fn];
	uintptr_t delta = (uintptr_t)d - (uintptr_t)src;
	bool sampled = count_call(s, shared, e, false, n, b);
	if (__builtin_expect(n >= HIST_ALIAS_LARGE && (delta & 4095) < HIST_ALIAS_WINDOW, 0))
		record_alias(shared, f, delta & 4095, n);
	/* one test, not taken when the copies do not overlap */
	if (fn == FN_MEMMOVE && __builtin_expect(delta != 0 && (delta < n || -delta < n), 0)) {
		if (delta < n)
			bump(shared, &f->overlap_dst_after, 1);
		else
			bump(shared, &f->overlap_dst_before, 1);
	}
	return sampled;
}

/* Records a memset but for a sampled call's part: true when it is one. */
HOT bool record_set_in(struct slot *s, bool shared, enum entry_point e, int c, size_t n, unsigned b)
{
	return count_call(s, shared, e, (unsigned char)c == 0, n, b);
}

/* Whether every call of this thread takes the slow path: the shared slot,
 * call sites sampled, or start-up not done (sampling and timing undecided). */
static bool every_call_slow(const struct slot *s)
{
	return s->shared || sample_every || !started;
}

/* Counts `passed` calls off *left (0: none drawn yet, a new thread's first
 * gap is drawn like the others); true when the event is due at this call,
 * with the next gap drawn. */
static bool count_down(unsigned *left, unsigned passed, unsigned (*draw)(void))
{
	if (*left == 0)
		*left = draw();
	if (*left > passed) {
		*left -= passed;
		return false;
	}
	*left = draw();
	return true;
}

/* The thread's windows (MEMSHIM_SEQUENCES), mapped on its first slow call
 * after start-up; none in the shared slot, whose threads would mix theirs. */
static struct seq_state *thread_windows(struct slot *s)
{
	if (s->seq || !sequence_length || s->shared || s->seq_failed)
		return s->seq;
	s->seq = seq_thread_start(sequence_length);
	s->seq_failed = s->seq == NULL;
	return s->seq;
}

static unsigned smaller(unsigned a, unsigned b) { return a < b ? a : b; }

/* For a call on the slow path: whether to time it (`timeable`: its
 * wrapper can), its part in the thread's windows, and when the common path
 * next detours (the countdown to the nearer of the next timed call and the
 * next window), or that every call takes the slow path for now.
 * `counted_down`: the call came because that countdown ran out, so it
 * stands for the whole run of calls the countdown started from. */
static bool after_slow_call(struct slot *s, bool counted_down, bool timeable, enum base_function fn, const void *d,
                            const void *src, size_t n)
{
	unsigned passed = counted_down ? detour_run : 1;
	bool due = false;
	if (timing_every && count_down(&calls_to_timed, passed, timing_countdown)) {
		due = timeable;
		if (!timeable)
			calls_to_timed = 1; /* a wrapper that cannot time a call: the next one */
	}
	struct seq_state *q = thread_windows(s);
	bool slow = (q && seq_count(q, passed, fn, d, src, n)) || every_call_slow(s);
	if (!slow) {
		detour_run = smaller(timing_every ? calls_to_timed : UINT_MAX, q ? seq_calls_to_window(q) : UINT_MAX);
		s->detour = detour_run;
	}
	my_fast_slot = slow ? NULL : s;
	return due;
}

/* Out of line, so that the common path calls nothing and the compiler
 * saves no register on it: the first call of a thread, the shared slot
 * (compiled apart, so the common path tests "shared" once instead of at
 * every counter), call-site sampling and timing.  The slot if this call is
 * to be timed, else NULL. */
RECORDING_CODE(shared) __attribute__((noinline, cold)) static struct slot *
record_copy_slow(enum base_function fn, enum entry_point e, const void *d, const void *src, size_t n, unsigned b,
		 bool timeable)
{
	bool counted_down = my_fast_slot != NULL;
	struct slot *s = my_slot ? my_slot : claim_slot();
	if (s->shared ? record_copy_in(s, true, fn, e, d, src, n, b) : record_copy_in(s, false, fn, e, d, src, n, b))
		record_sampled(s, e, false, b, d, src, n);
	maybe_sample(s, fn, n);
	return after_slow_call(s, counted_down, timeable, fn, d, src, n) ? s : NULL;
}

/* The variant's call, timed: from a slow path the wrapper jumped to, so
 * that the return address is the program's call site.  The stack is first
 * brought to one place in a cache line (STACK_PHASE bytes past a 64-byte
 * boundary): where the call's return address fell varied from process to
 * process with the stack's random start, and moved a small copy's timed
 * latency by a large share of it from one run to the next (D37). */
#define STACK_PHASE 32
#define TIMED_CALL(s, fn, b, n, call)                                                                  \
	({                                                                                             \
		uintptr_t sp_;                                                                         \
		__asm__("mov %%rsp, %0" : "=r"(sp_));                                                  \
		char *pad_ = __builtin_alloca((sp_ & 63) + STACK_PHASE);                               \
		__asm__ volatile("" : : "r"(pad_) : "memory");                                         \
		uint64_t start_ = timing_start();                                                      \
		__typeof__(call) result_ = (call);                                                     \
		uint64_t ticks_ = timing_end() - start_;                                               \
		timing_count(&(s)->timed, (s)->shared, fn, b, n, ticks_,                               \
		             sample_every ? __builtin_return_address(0) : NULL);                       \
		result_;                                                                               \
	})

HOT void record_copy(bool timed, enum base_function fn, enum entry_point e, const void *d, const void *src,
		     size_t n, unsigned b)
{
	struct slot *s = fast_slot(timed);
	if (__builtin_expect(s == NULL || b >= FRONT_BUCKETS, 0))
		record_copy_slow(fn, e, d, src, n, b, false);
	else if (record_copy_in(s, false, fn, e, d, src, n, b))
		record_sampled(s, e, false, b, d, src, n);
}

RECORDING_CODE(shared) __attribute__((noinline, cold)) static struct slot *
record_set_slow(enum entry_point e, const void *d, int c, size_t n, unsigned b, bool timeable)
{
	bool counted_down = my_fast_slot != NULL;
	struct slot *s = my_slot ? my_slot : claim_slot();
	if (s->shared ? record_set_in(s, true, e, c, n, b) : record_set_in(s, false, e, c, n, b))
		record_sampled(s, e, (unsigned char)c == 0, b, d, NULL, n);
	maybe_sample(s, FN_MEMSET, n);
	return after_slow_call(s, counted_down, timeable, FN_MEMSET, d, NULL, n) ? s : NULL;
}

HOT void record_set(bool timed, enum entry_point e, const void *d, int c, size_t n, unsigned b)
{
	struct slot *s = fast_slot(timed);
	if (__builtin_expect(s == NULL || b >= FRONT_BUCKETS, 0))
		record_set_slow(e, d, c, n, b, false);
	else if (record_set_in(s, false, e, c, n, b))
		record_sampled(s, e, (unsigned char)c == 0, b, d, NULL, n);
}

/* Marks the call in progress for the profiler (preload/profile.h).  The
 * functions below that jump to the variant mark it after counting it: the
 * mark's stores and its compiler barriers, made first, kept the count's
 * registers live across them and cost the common path a saved register;
 * a sample that lands in the count meanwhile reads the thread's previous
 * call as the one in progress, in the recording's own code either way.
 * From a function the wrapper jumped to, the frame and return address are
 * still the wrapper's, the program's call site. */
#define MARK_CALL(fn, b) profile_mark(fn, b, __builtin_dwarf_cfa(), __builtin_return_address(0))
/* The same from the cold functions, which serve the profiled wrappers and the others. */
#define MARK_IF_PROFILED(fn, b)                                                                    \
	do {                                                                                       \
		if (config_get()->profile_hz)                                                      \
			MARK_CALL(fn, b);                                                          \
	} while (0)

/* ---- record, then jump to the variant ----
 * Both paths of each of these end in a jump to the variant, the slow one
 * from a cold function of its own, so nothing joins after the slow call and
 * the common path saves no register and makes no stack frame: memcpy,
 * memmove, memset and their _chk forms, the entry points most calls take.
 * The cold functions take six arguments at most (all in registers, so the
 * jump to them is a tail call) and find the variant from the entry point.
 * `timed`: the wrapper is one of the timed set. */

static memmove_fn *copy_target(enum entry_point e)
{
	return e == E_MEMCPY ? target.memcpy : e == E_MEMPCPY ? target.mempcpy : target.memmove;
}

static memmove_chk_fn *copy_chk_target(enum entry_point e)
{
	return e == E_MEMCPY_CHK ? target.memcpy_chk : e == E_MEMPCPY_CHK ? target.mempcpy_chk : target.memmove_chk;
}

/* After a sampled call (recorded but for record_sampled's part): that
 * part, then the variant. */
#define COLD_THEN RECORDING_CODE(shared) __attribute__((noinline, cold)) static void *
COLD_THEN copy_then_sampled(enum entry_point e, void *d, const void *src, size_t n, unsigned b)
{
	MARK_IF_PROFILED(entry_point_base[e], b);
	record_sampled(my_slot, e, false, b, d, src, n);
	return copy_target(e)(d, src, n);
}

COLD_THEN copy_chk_then_sampled(enum entry_point e, void *d, const void *src, size_t n, size_t room, unsigned b)
{
	MARK_IF_PROFILED(entry_point_base[e], b);
	record_sampled(my_slot, e, false, b, d, src, n);
	return copy_chk_target(e)(d, src, n, room);
}

COLD_THEN set_then_sampled(enum entry_point e, void *d, int c, size_t n, unsigned b)
{
	MARK_IF_PROFILED(FN_MEMSET, b);
	record_sampled(my_slot, e, (unsigned char)c == 0, b, d, NULL, n);
	return target.memset(d, c, n);
}

COLD_THEN set_chk_then_sampled(enum entry_point e, void *d, int c, size_t n, size_t room, unsigned b)
{
	MARK_IF_PROFILED(FN_MEMSET, b);
	record_sampled(my_slot, e, (unsigned char)c == 0, b, d, NULL, n);
	return target.memset_chk(d, c, n, room);
}

COLD_THEN copy_then_slow(enum entry_point e, void *d, const void *src, size_t n, unsigned b)
{
	MARK_IF_PROFILED(entry_point_base[e], b);
	enum base_function fn = entry_point_base[e];
	struct slot *timed = record_copy_slow(fn, e, d, src, n, b, true);
	if (timed)
		return TIMED_CALL(timed, fn, b, n, copy_target(e)(d, src, n));
	return copy_target(e)(d, src, n);
}

HOT void *copy_then(bool timed, bool profiled, memmove_fn *t, enum base_function fn, enum entry_point e, void *d,
		    const void *src, size_t n, unsigned b)
{
	struct slot *s = fast_slot(timed);
	if (__builtin_expect(s == NULL || b >= FRONT_BUCKETS, 0))
		return copy_then_slow(e, d, src, n, b);
	if (record_copy_in(s, false, fn, e, d, src, n, b))
		return copy_then_sampled(e, d, src, n, b);
	if (profiled)
		MARK_CALL(fn, b);
	return t(d, src, n);
}

COLD_THEN copy_chk_then_slow(enum entry_point e, void *d, const void *src, size_t n, size_t room, unsigned b)
{
	MARK_IF_PROFILED(entry_point_base[e], b);
	enum base_function fn = entry_point_base[e];
	struct slot *timed = record_copy_slow(fn, e, d, src, n, b, true);
	if (timed)
		return TIMED_CALL(timed, fn, b, n, copy_chk_target(e)(d, src, n, room));
	return copy_chk_target(e)(d, src, n, room);
}

HOT void *copy_chk_then(bool timed, bool profiled, memmove_chk_fn *t, enum base_function fn, enum entry_point e, void *d,
			const void *src, size_t n, size_t room, unsigned b)
{
	struct slot *s = fast_slot(timed);
	if (__builtin_expect(s == NULL || b >= FRONT_BUCKETS, 0))
		return copy_chk_then_slow(e, d, src, n, room, b);
	if (record_copy_in(s, false, fn, e, d, src, n, b))
		return copy_chk_then_sampled(e, d, src, n, room, b);
	if (profiled)
		MARK_CALL(fn, b);
	return t(d, src, n, room);
}

COLD_THEN set_then_slow(enum entry_point e, void *d, int c, size_t n, unsigned b)
{
	MARK_IF_PROFILED(FN_MEMSET, b);
	struct slot *timed = record_set_slow(e, d, c, n, b, true);
	if (timed)
		return TIMED_CALL(timed, FN_MEMSET, b, n, target.memset(d, c, n));
	return target.memset(d, c, n);
}

HOT void *set_then(bool timed, bool profiled, memset_fn *t, enum entry_point e, void *d, int c, size_t n, unsigned b)
{
	struct slot *s = fast_slot(timed);
	if (__builtin_expect(s == NULL || b >= FRONT_BUCKETS, 0))
		return set_then_slow(e, d, c, n, b);
	if (record_set_in(s, false, e, c, n, b))
		return set_then_sampled(e, d, c, n, b);
	if (profiled)
		MARK_CALL(FN_MEMSET, b);
	return t(d, c, n);
}

COLD_THEN set_chk_then_slow(enum entry_point e, void *d, int c, size_t n, size_t room, unsigned b)
{
	MARK_IF_PROFILED(FN_MEMSET, b);
	struct slot *timed = record_set_slow(e, d, c, n, b, true);
	if (timed)
		return TIMED_CALL(timed, FN_MEMSET, b, n, target.memset_chk(d, c, n, room));
	return target.memset_chk(d, c, n, room);
}

HOT void *set_chk_then(bool timed, bool profiled, memset_chk_fn *t, enum entry_point e, void *d, int c, size_t n, size_t room,
		       unsigned b)
{
	struct slot *s = fast_slot(timed);
	if (__builtin_expect(s == NULL || b >= FRONT_BUCKETS, 0))
		return set_chk_then_slow(e, d, c, n, room, b);
	if (record_set_in(s, false, e, c, n, b))
		return set_chk_then_sampled(e, d, c, n, room, b);
	if (profiled)
		MARK_CALL(FN_MEMSET, b);
	return t(d, c, n, room);
}

/* ---- the wrappers: record, then the chosen variant's function ----
 * Four sets: with the profiler's mark or without, timed calls or not;
 * and a fifth for the in-process A/B, every call timed (preload/ab.h). */

#define AB 0
#define WRAPPED(name) recording_##name
#define PROFILED 0
#define TIMED false
#include "preload/record_wrappers.h"
#undef WRAPPED
#undef PROFILED
#undef TIMED

#define WRAPPED(name) profiling_##name
#define PROFILED 1
#define TIMED false
#include "preload/record_wrappers.h"
#undef WRAPPED
#undef PROFILED
#undef TIMED

#define WRAPPED(name) timed_recording_##name
#define PROFILED 0
#define TIMED true
#include "preload/record_wrappers.h"
#undef WRAPPED
#undef PROFILED
#undef TIMED

#define WRAPPED(name) timed_profiling_##name
#define PROFILED 1
#define TIMED true
#include "preload/record_wrappers.h"
#undef WRAPPED
#undef PROFILED
#undef TIMED
#undef AB

#define AB 1
#define WRAPPED(name) ab_##name
#define PROFILED 0
#define TIMED false
#include "preload/record_wrappers.h"
#undef WRAPPED
#undef PROFILED
#undef TIMED
#undef AB

const struct entry_set *record_entries(enum base_function fn, const struct entry_set *chosen)
{
	/* the entry points that follow fn (shim/memshim.h's list) call chosen's */
#define TARGET_IF_FOLLOWS(v, entry, symbol, base, ...)                                             \
	if (fn == base)                                                                            \
		target.entry = chosen->entry;
	MEMSHIM_ENTRY_POINTS(TARGET_IF_FOLLOWS, )
#undef TARGET_IF_FOLLOWS
	call_buckets_fill();
	const struct config *c = config_get();
	if (c->timing_every || c->sequence_length) /* the wrappers that count down to a detour */
		return c->profile_hz ? &timed_profiling_entries : &timed_recording_entries;
	return c->profile_hz ? &profiling_entries : &recording_entries;
}

const struct entry_set *record_ab_entries(enum base_function fn, const struct entry_set *a,
                                          const struct entry_set *b)
{
	record_entries(fn, a); /* arm A serves the calls that go untimed */
	ab_set_arms(fn, a, b);
	return &ab_entries;
}

const struct entry_set *record_targets(void)
{
	return &target;
}

bool record_start_callsites(unsigned every, unsigned depth)
{
	/* Loading libunwind and its first walk (callsites_start does one) call
	 * memset: those calls are ours, not the program's, so this thread
	 * counts them into a slot that no dump reads. */
	static struct slot discarded;
	struct slot *mine = my_slot;
	my_slot = &discarded;
	my_fast_slot = NULL;
	bool started = callsites_start(depth);
	my_slot = mine;
	my_fast_slot = NULL; /* the thread's next call finds its path again */
	if (!started)
		return false;
	sample_every = every;
	return true;
}

bool record_start_timing(unsigned every)
{
	if (!timing_start_up(every))
		return false;
	timing_every = every;
	record_timing_counted = true;
	return true;
}

void record_stop_timing(void)
{
	if (!timing_every)
		return;
	timing_every = 0;
	timing_say_forbidden();
}

void record_start_sequences(unsigned length)
{
	sequence_length = length;
}

void record_started(void)
{
	started = true;
}
