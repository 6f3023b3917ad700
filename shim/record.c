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
 * The recording path allocates nothing and calls nothing that may copy
 * (malloc, stdio and the unwinder all call memcpy). */
#include "shim/record.h"

#include "dispatch/config.h"
#include "shim/callsites.h"

#include <stdbool.h>

#define MAX_SLOTS 512

struct slot {
	struct histogram hist;
	unsigned sample_countdown; /* call sites: calls until the next sample */
	bool shared;               /* the overflow slot: atomic adds */
};

static struct slot slots[MAX_SLOTS + 1]; /* the last is the shared overflow slot */
static unsigned slots_claimed;
static __thread struct slot *my_slot __attribute__((tls_model("initial-exec")));
static const struct entry_set *target[FN_COUNT];
static unsigned sample_every; /* 0: no call-site sampling */

static struct slot *claim_slot(void)
{
	unsigned i = __atomic_fetch_add(&slots_claimed, 1, __ATOMIC_RELAXED);
	struct slot *s = i < MAX_SLOTS ? &slots[i] : &slots[MAX_SLOTS];
	s->shared = i >= MAX_SLOTS;
	s->sample_countdown = sample_every;
	my_slot = s;
	return s;
}

static inline void bump(const struct slot *s, uint64_t *counter, uint64_t n)
{
	if (__builtin_expect(s->shared, 0))
		__atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
	else
		__asm__("addq %1, %0" : "+m"(*counter) : "er"(n));
}

static inline struct slot *this_slot(void)
{
	struct slot *s = my_slot;
	return __builtin_expect(s != NULL, 1) ? s : claim_slot();
}

static inline void maybe_sample(struct slot *s, enum base_function fn, size_t n)
{
	if (__builtin_expect(sample_every == 0, 1))
		return;
	if (s->sample_countdown-- > 1)
		return;
	s->sample_countdown = sample_every;
	callsites_sample(fn, n);
}

/* What every call records: the size, the destination's alignment, the entry point. */
static inline struct function_histogram *record_call(struct slot *s, enum base_function fn,
                                                     enum entry_point e, const void *d, size_t n)
{
	struct function_histogram *f = &s->hist.fn[fn];
	unsigned b = hist_bucket(n);
	bump(s, &f->calls[b], 1);
	bump(s, &f->bytes[b], n);
	bump(s, &f->dst_mod64[(uintptr_t)d & 63], 1);
	bump(s, &s->hist.entry_calls[e], 1);
	return f;
}

static inline void record_copy(enum base_function fn, enum entry_point e, const void *d,
                               const void *src, size_t n)
{
	struct slot *s = this_slot();
	struct function_histogram *f = record_call(s, fn, e, d, n);
	uintptr_t delta = (uintptr_t)d - (uintptr_t)src;
	bump(s, &f->delta_mod64[delta & 63], 1);
	if ((delta & 4095) < HIST_ALIAS_WINDOW) {
		bump(s, &f->alias_calls, 1);
		bump(s, &f->alias_bytes, n);
	}
	if (fn == FN_MEMMOVE && delta != 0) {
		if (delta < n)
			bump(s, &f->overlap_dst_after, 1);
		else if (-delta < n)
			bump(s, &f->overlap_dst_before, 1);
	}
	maybe_sample(s, fn, n);
}

static inline void record_set(enum entry_point e, const void *d, int c, size_t n)
{
	struct slot *s = this_slot();
	struct function_histogram *f = record_call(s, FN_MEMSET, e, d, n);
	if ((unsigned char)c == 0) {
		bump(s, &f->zero_calls, 1);
		bump(s, &f->zero_bytes, n);
	}
	maybe_sample(s, FN_MEMSET, n);
}

/* ---- the wrappers: record, then the chosen variant's function ---- */

static void *rec_memcpy(void *restrict d, const void *restrict s, size_t n)
{
	record_copy(FN_MEMCPY, E_MEMCPY, d, s, n);
	return target[FN_MEMCPY]->memcpy(d, s, n);
}

static void *rec_mempcpy(void *restrict d, const void *restrict s, size_t n)
{
	record_copy(FN_MEMCPY, E_MEMPCPY, d, s, n);
	return target[FN_MEMCPY]->mempcpy(d, s, n);
}

static void *rec_memcpy_chk(void *restrict d, const void *restrict s, size_t n, size_t room)
{
	record_copy(FN_MEMCPY, E_MEMCPY_CHK, d, s, n);
	return target[FN_MEMCPY]->memcpy_chk(d, s, n, room);
}

static void *rec_mempcpy_chk(void *restrict d, const void *restrict s, size_t n, size_t room)
{
	record_copy(FN_MEMCPY, E_MEMPCPY_CHK, d, s, n);
	return target[FN_MEMCPY]->mempcpy_chk(d, s, n, room);
}

static void *rec_memmove(void *d, const void *s, size_t n)
{
	record_copy(FN_MEMMOVE, E_MEMMOVE, d, s, n);
	return target[FN_MEMMOVE]->memmove(d, s, n);
}

static void *rec_memmove_chk(void *d, const void *s, size_t n, size_t room)
{
	record_copy(FN_MEMMOVE, E_MEMMOVE_CHK, d, s, n);
	return target[FN_MEMMOVE]->memmove_chk(d, s, n, room);
}

static void rec_bcopy(const void *s, void *d, size_t n)
{
	record_copy(FN_MEMMOVE, E_BCOPY, d, s, n);
	target[FN_MEMMOVE]->bcopy(s, d, n);
}

static void *rec_memset(void *d, int c, size_t n)
{
	record_set(E_MEMSET, d, c, n);
	return target[FN_MEMSET]->memset(d, c, n);
}

static void *rec_memset_chk(void *d, int c, size_t n, size_t room)
{
	record_set(E_MEMSET_CHK, d, c, n);
	return target[FN_MEMSET]->memset_chk(d, c, n, room);
}

static void rec_bzero(void *d, size_t n)
{
	record_set(E_BZERO, d, 0, n);
	target[FN_MEMSET]->bzero(d, n);
}

static void rec_explicit_bzero(void *d, size_t n)
{
	record_set(E_EXPLICIT_BZERO, d, 0, n);
	target[FN_MEMSET]->explicit_bzero(d, n);
}

static void rec_explicit_bzero_chk(void *d, size_t n, size_t room)
{
	record_set(E_EXPLICIT_BZERO_CHK, d, 0, n);
	target[FN_MEMSET]->explicit_bzero_chk(d, n, room);
}

static const struct entry_set recording = {
	.memcpy = rec_memcpy, .mempcpy = rec_mempcpy, .memcpy_chk = rec_memcpy_chk,
	.mempcpy_chk = rec_mempcpy_chk, .memmove = rec_memmove, .memmove_chk = rec_memmove_chk,
	.bcopy = rec_bcopy, .memset = rec_memset, .memset_chk = rec_memset_chk, .bzero = rec_bzero,
	.explicit_bzero = rec_explicit_bzero, .explicit_bzero_chk = rec_explicit_bzero_chk,
};

const struct entry_set *record_entries(enum base_function fn, const struct entry_set *chosen)
{
	target[fn] = chosen;
	return &recording;
}

/* ---- for the dump ---- */

static void add_counters(uint64_t *to, const uint64_t *from, size_t count)
{
	for (size_t i = 0; i < count; i++)
		to[i] += __atomic_load_n(&from[i], __ATOMIC_RELAXED);
}

void record_sum(struct histogram *out)
{
	unsigned claimed = __atomic_load_n(&slots_claimed, __ATOMIC_RELAXED);
	unsigned used = claimed < MAX_SLOTS ? claimed : MAX_SLOTS + 1;
	for (unsigned i = 0; i < used; i++)
		add_counters((uint64_t *)out, (const uint64_t *)&slots[i].hist,
		             sizeof *out / sizeof(uint64_t));
}

static void zero_counters(uint64_t *p, size_t count)
{
	for (size_t i = 0; i < count; i++)
		p[i] = 0;
}

void record_reset(void)
{
	unsigned claimed = __atomic_load_n(&slots_claimed, __ATOMIC_RELAXED);
	unsigned used = claimed < MAX_SLOTS ? claimed : MAX_SLOTS + 1;
	for (unsigned i = 0; i < used; i++)
		zero_counters((uint64_t *)&slots[i].hist, sizeof slots[i].hist / sizeof(uint64_t));
	callsites_reset();
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
