/* The recording wrappers and where their counts live.
 *
 * Each thread counts into a slot of its own, claimed on its first call
 * with one compare-and-swap and never given back, so counts of threads
 * that have ended are still there at the dump.  Counters are bumped with a
 * single add-to-memory instruction: no other thread writes the slot, and a
 * signal handler running on the same thread can only come between two
 * instructions, so no update is lost and no lock is taken.  Past MAX_SLOTS
 * threads, later threads share one slot with atomic adds: slower, still exact.
 *
 * The common path takes one branch for all that is rare: it counts down the
 * calls to the thread's next detour through the slow path, where the first
 * call of a thread, the shared slot, call-site sampling (every call, while
 * it is on) and timed calls (one in N, MEMSHIM_TIMING) are handled.
 *
 * The recording path allocates nothing and calls nothing that may copy
 * (malloc, stdio and the unwinder all call memcpy). */
#include "preload/record.h"

#include "dispatch/config.h"
#include "preload/callsites.h"
#include "preload/profile.h"
#include "preload/timing.h"

#include <limits.h>
#include <stdbool.h>

#define MAX_SLOTS 512

struct slot {
	struct histogram hist;
	unsigned sample_countdown; /* call sites: calls until the next sample */
	unsigned detour;           /* calls until the common path next takes the slow one */
	bool shared;               /* the overflow slot: atomic adds */
	struct timing_counts timed; /* MEMSHIM_TIMING */
};

static struct slot slots[MAX_SLOTS + 1]; /* the last is the shared overflow slot */
static unsigned slots_claimed;
static __thread struct slot *my_slot __attribute__((tls_model("initial-exec")));
/* The chosen variant's functions, one member per function that follows fn;
 * copied member by member so a call needs one load, not two. */
static struct entry_set target;
static unsigned sample_every; /* 0: no call-site sampling */
static unsigned timing_every; /* 0: no timed calls */
static bool timing_counts;    /* the slots hold timed calls: timing was on */
static bool started;          /* start-up has set the two above: detours may be counted down */
/* Where every call takes the slow path (the shared slot, call sites on):
 * this thread's calls up to its next timed one. */
static __thread unsigned slow_calls_to_timed __attribute__((tls_model("initial-exec")));

/* The recording path is a handful of instructions inlined into each wrapper. */
#define HOT static inline __attribute__((always_inline))

static struct slot *claim_slot(void)
{
	unsigned i = __atomic_fetch_add(&slots_claimed, 1, __ATOMIC_RELAXED);
	struct slot *s = i < MAX_SLOTS ? &slots[i] : &slots[MAX_SLOTS];
	s->shared = i >= MAX_SLOTS;
	s->sample_countdown = sample_every;
	s->detour = 1;
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

/* The common case: this thread has its own slot and its countdown to the
 * next detour has not run out.  Everything else takes record_copy_slow /
 * record_set_slow. */
HOT struct slot *fast_slot(void)
{
	struct slot *s = my_slot;
	return __builtin_expect(s != NULL && !s->shared && --s->detour != 0, 1) ? s : NULL;
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

/* What every call records: the size, the destination's alignment, the entry point. */
HOT struct function_histogram *record_call(struct slot *s, bool shared, enum base_function fn,
                                           enum entry_point e, const void *d, size_t n, unsigned b)
{
	struct function_histogram *f = &s->hist.fn[fn];
	bump(shared, &f->calls[b], 1);
	bump(shared, &f->bytes[b], n);
	bump(shared, &f->dst_mod64[(uintptr_t)d & 63], 1);
	bump(shared, &s->hist.entry_calls[e], 1);
	return f;
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

HOT void record_copy_in(struct slot *s, bool shared, enum base_function fn, enum entry_point e,
                        const void *d, const void *src, size_t n, unsigned b)
{
	struct function_histogram *f = record_call(s, shared, fn, e, d, n, b);
	uintptr_t delta = (uintptr_t)d - (uintptr_t)src;
	bump(shared, &f->delta_mod64[delta & 63], 1);
	if ((delta & 4095) < HIST_ALIAS_WINDOW)
		record_alias(shared, f, delta & 4095, n);
	if (fn == FN_MEMMOVE && delta != 0) {
		if (delta < n)
			bump(shared, &f->overlap_dst_after, 1);
		else if (-delta < n)
			bump(shared, &f->overlap_dst_before, 1);
	}
}

/* Whether every call of this thread takes the slow path: the shared slot,
 * call sites sampled, or start-up not done (sampling and timing undecided). */
static bool every_call_slow(const struct slot *s)
{
	return s->shared || sample_every || !started;
}

/* The calls until the common path next detours, after a slow call
 * (`detoured`: it came because the countdown ran out; `timed`: it is timed). */
static unsigned next_detour(const struct slot *s, bool detoured, bool timed)
{
	if (every_call_slow(s))
		return 1;
	if (!timing_every)
		return UINT_MAX; /* nothing to detour for: practically never */
	if (detoured && !timed)
		return 1; /* a timed call was due on a wrapper that cannot time one: the next call */
	return timing_countdown();
}

/* For a call on the slow path: whether to time it (`timeable`: its
 * wrapper can), and the countdown to the thread's next detour.  `detoured`:
 * the call came because the countdown ran out. */
static bool time_this_call(struct slot *s, bool detoured, bool timeable)
{
	bool due = false;
	if (timing_every && every_call_slow(s)) {
		if (slow_calls_to_timed == 0) /* a new thread: its first gap, drawn like the others */
			slow_calls_to_timed = timing_countdown();
		if (slow_calls_to_timed > 1)
			slow_calls_to_timed--;
		else if (timeable) {
			due = true;
			slow_calls_to_timed = timing_countdown();
		}
	} else if (timing_every && detoured) {
		due = timeable; /* else the next call detours and is timed */
	}
	if (!s->shared)
		s->detour = next_detour(s, detoured, due);
	return due;
}

/* Out of line, so that the common path calls nothing and the compiler
 * saves no register on it: the first call of a thread, the shared slot
 * (compiled apart, so the common path tests "shared" once instead of at
 * every counter), call-site sampling and timing.  The slot if this call is
 * to be timed, else NULL. */
__attribute__((noinline, cold)) static struct slot *record_copy_slow(enum base_function fn, enum entry_point e,
								       const void *d, const void *src, size_t n,
								       unsigned b, bool timeable)
{
	bool detoured = my_slot != NULL;
	struct slot *s = my_slot ? my_slot : claim_slot();
	if (s->shared)
		record_copy_in(s, true, fn, e, d, src, n, b);
	else
		record_copy_in(s, false, fn, e, d, src, n, b);
	maybe_sample(s, fn, n);
	return time_this_call(s, detoured, timeable) ? s : NULL;
}

/* The variant's call, timed: from a slow path the wrapper jumped to, so
 * that the return address is the program's call site.  The stack is first
 * brought to one place in a cache line (STACK_PHASE bytes past a 64-byte
 * boundary): where the call's return address fell varied from process to
 * process with the stack's random start, and moved a 16-byte copy's timed
 * latency by 0.8 ns, a fifth of it, from one run to the next. */
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

HOT void record_copy(enum base_function fn, enum entry_point e, const void *d, const void *src, size_t n,
                     unsigned b)
{
	struct slot *s = fast_slot();
	if (__builtin_expect(s != NULL, 1))
		record_copy_in(s, false, fn, e, d, src, n, b);
	else
		record_copy_slow(fn, e, d, src, n, b, false);
}

HOT void record_set_in(struct slot *s, bool shared, enum entry_point e, const void *d, int c, size_t n,
                       unsigned b)
{
	struct function_histogram *f = record_call(s, shared, FN_MEMSET, e, d, n, b);
	if ((unsigned char)c == 0) {
		bump(shared, &f->zero_calls, 1);
		bump(shared, &f->zero_bytes, n);
	}
}

__attribute__((noinline, cold)) static struct slot *record_set_slow(enum entry_point e, const void *d, int c,
								      size_t n, unsigned b, bool timeable)
{
	bool detoured = my_slot != NULL;
	struct slot *s = my_slot ? my_slot : claim_slot();
	if (s->shared)
		record_set_in(s, true, e, d, c, n, b);
	else
		record_set_in(s, false, e, d, c, n, b);
	maybe_sample(s, FN_MEMSET, n);
	return time_this_call(s, detoured, timeable) ? s : NULL;
}

HOT void record_set(enum entry_point e, const void *d, int c, size_t n, unsigned b)
{
	struct slot *s = fast_slot();
	if (__builtin_expect(s != NULL, 1))
		record_set_in(s, false, e, d, c, n, b);
	else
		record_set_slow(e, d, c, n, b, false);
}

/* ---- record, then jump to the variant ----
 * Both paths of each of these end in a jump to the variant, the slow one
 * from a cold function of its own, so nothing joins after the slow call and
 * the common path saves no register and makes no stack frame: memcpy,
 * memmove, memset and their _chk forms, the entry points most calls take.
 * The cold functions take six arguments at most (all in registers, so the
 * jump to them is a tail call) and find the variant from the entry point. */

static memmove_fn *copy_target(enum entry_point e)
{
	return e == E_MEMCPY ? target.memcpy : e == E_MEMPCPY ? target.mempcpy : target.memmove;
}

static memmove_chk_fn *copy_chk_target(enum entry_point e)
{
	return e == E_MEMCPY_CHK ? target.memcpy_chk : e == E_MEMPCPY_CHK ? target.mempcpy_chk : target.memmove_chk;
}

__attribute__((noinline, cold)) static void *copy_then_slow(enum entry_point e, void *d, const void *src,
							      size_t n, unsigned b)
{
	enum base_function fn = entry_point_base[e];
	struct slot *timed = record_copy_slow(fn, e, d, src, n, b, true);
	if (timed)
		return TIMED_CALL(timed, fn, b, n, copy_target(e)(d, src, n));
	return copy_target(e)(d, src, n);
}

HOT void *copy_then(memmove_fn *t, enum base_function fn, enum entry_point e, void *d, const void *src, size_t n,
		    unsigned b)
{
	struct slot *s = fast_slot();
	if (__builtin_expect(s == NULL, 0))
		return copy_then_slow(e, d, src, n, b);
	record_copy_in(s, false, fn, e, d, src, n, b);
	return t(d, src, n);
}

__attribute__((noinline, cold)) static void *copy_chk_then_slow(enum entry_point e, void *d, const void *src,
								  size_t n, size_t room, unsigned b)
{
	enum base_function fn = entry_point_base[e];
	struct slot *timed = record_copy_slow(fn, e, d, src, n, b, true);
	if (timed)
		return TIMED_CALL(timed, fn, b, n, copy_chk_target(e)(d, src, n, room));
	return copy_chk_target(e)(d, src, n, room);
}

HOT void *copy_chk_then(memmove_chk_fn *t, enum base_function fn, enum entry_point e, void *d, const void *src,
			size_t n, size_t room, unsigned b)
{
	struct slot *s = fast_slot();
	if (__builtin_expect(s == NULL, 0))
		return copy_chk_then_slow(e, d, src, n, room, b);
	record_copy_in(s, false, fn, e, d, src, n, b);
	return t(d, src, n, room);
}

__attribute__((noinline, cold)) static void *set_then_slow(enum entry_point e, void *d, int c, size_t n,
							     unsigned b)
{
	struct slot *timed = record_set_slow(e, d, c, n, b, true);
	if (timed)
		return TIMED_CALL(timed, FN_MEMSET, b, n, target.memset(d, c, n));
	return target.memset(d, c, n);
}

HOT void *set_then(memset_fn *t, enum entry_point e, void *d, int c, size_t n, unsigned b)
{
	struct slot *s = fast_slot();
	if (__builtin_expect(s == NULL, 0))
		return set_then_slow(e, d, c, n, b);
	record_set_in(s, false, e, d, c, n, b);
	return t(d, c, n);
}

__attribute__((noinline, cold)) static void *set_chk_then_slow(enum entry_point e, void *d, int c, size_t n,
								 size_t room, unsigned b)
{
	struct slot *timed = record_set_slow(e, d, c, n, b, true);
	if (timed)
		return TIMED_CALL(timed, FN_MEMSET, b, n, target.memset_chk(d, c, n, room));
	return target.memset_chk(d, c, n, room);
}

HOT void *set_chk_then(memset_chk_fn *t, enum entry_point e, void *d, int c, size_t n, size_t room, unsigned b)
{
	struct slot *s = fast_slot();
	if (__builtin_expect(s == NULL, 0))
		return set_chk_then_slow(e, d, c, n, room, b);
	record_set_in(s, false, e, d, c, n, b);
	return t(d, c, n, room);
}

/* ---- the wrappers: record, then the chosen variant's function ---- */

#define WRAPPED(name) recording_##name
#define PROFILED 0
#include "preload/record_wrappers.h"
#undef WRAPPED
#undef PROFILED

#define WRAPPED(name) profiling_##name
#define PROFILED 1
#include "preload/record_wrappers.h"
#undef WRAPPED
#undef PROFILED

const struct entry_set *record_entries(enum base_function fn, const struct entry_set *chosen)
{
	/* the entry points that follow fn (shim/memshim.h's list) call chosen's */
#define TARGET_IF_FOLLOWS(v, entry, symbol, base, ...)                                             \
	if (fn == base)                                                                            \
		target.entry = chosen->entry;
	MEMSHIM_ENTRY_POINTS(TARGET_IF_FOLLOWS, )
#undef TARGET_IF_FOLLOWS
	return config_get()->profile_hz ? &profiling_entries : &recording_entries;
}

const struct entry_set *record_targets(void)
{
	return &target;
}

/* ---- for the dump ---- */

static void add_counters(uint64_t *to, const uint64_t *from, size_t count)
{
	for (size_t i = 0; i < count; i++)
		to[i] += __atomic_load_n(&from[i], __ATOMIC_RELAXED);
}

/* The slots in use: those claimed, and the shared one past MAX_SLOTS. */
static unsigned slots_used(void)
{
	unsigned claimed = __atomic_load_n(&slots_claimed, __ATOMIC_RELAXED);
	return claimed < MAX_SLOTS ? claimed : MAX_SLOTS + 1;
}

void record_sum(struct histogram *out)
{
	unsigned used = slots_used();
	for (unsigned i = 0; i < used; i++)
		add_counters((uint64_t *)out, (const uint64_t *)&slots[i].hist,
		             sizeof *out / sizeof(uint64_t));
}

void record_sum_timing(struct timing_counts *out)
{
	unsigned used = timing_counts ? slots_used() : 0;
	for (unsigned i = 0; i < used; i++)
		timing_add(out, &slots[i].timed);
}

static void zero_counters(uint64_t *p, size_t count)
{
	for (size_t i = 0; i < count; i++)
		p[i] = 0;
}

void record_reset(void)
{
	unsigned used = slots_used();
	for (unsigned i = 0; i < used; i++) {
		zero_counters((uint64_t *)&slots[i].hist, sizeof slots[i].hist / sizeof(uint64_t));
		if (timing_counts) /* untouched otherwise: no page of them is made */
			zero_counters((uint64_t *)&slots[i].timed, sizeof slots[i].timed / sizeof(uint64_t));
	}
	callsites_reset();
	if (timing_counts)
		timing_restart_in_child();
}

bool record_start_callsites(unsigned every)
{
	/* Loading libunwind and its first walk (callsites_start does one) call
	 * memset: those calls are ours, not the program's, so this thread
	 * counts them into a slot that no dump reads. */
	static struct slot discarded;
	struct slot *mine = my_slot;
	my_slot = &discarded;
	bool started = callsites_start();
	my_slot = mine;
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
	timing_counts = true;
	return true;
}

void record_stop_timing(void)
{
	if (!timing_every)
		return;
	timing_every = 0;
	timing_say_forbidden();
}

void record_started(void)
{
	started = true;
}
