/* The in-process A/B's blocks, store and dump records (preload/ab.h).
 * Nothing here allocates but the store's one mapping, and nothing waits on
 * a lock but the dump, a bounded time: a signal handler may call memcpy, or
 * dump, at any instruction. */
#include "preload/ab.h"

#include "dispatch/config.h"
#include "preload/recording_code.h"

#include <errno.h>
#include <sys/mman.h>

/* Pairs the store holds before neighbours are added together. */
#define STORE_PAIRS 4096
/* Tries of the dump to take the store's lock before it writes without it. */
#define DUMP_LOCK_TRIES 100000000

/* One pair of blocks of a thread, every function. */
struct stored_pair {
	uint64_t calls[2][FN_COUNT][AB_PAIR_CLASSES];
	uint64_t ticks[2][FN_COUNT][AB_PAIR_CLASSES];
};

struct entry_set ab_sets[2];
static bool started;
static unsigned block_calls; /* doubles each time the store fills */
static struct stored_pair *store;
static unsigned stored, store_lock;
static uint64_t dropped[FN_COUNT][2];
static __thread struct ab_thread me __attribute__((tls_model("initial-exec")));

void ab_set_arms(enum base_function fn, const struct entry_set *a, const struct entry_set *b)
{
#define ARMS_IF_FOLLOWS(v, entry, symbol, base, ...)                                               \
	if (fn == base) {                                                                              \
		ab_sets[0].entry = a->entry;                                                               \
		ab_sets[1].entry = b->entry;                                                               \
	}
	MEMSHIM_ENTRY_POINTS(ARMS_IF_FOLLOWS, )
#undef ARMS_IF_FOLLOWS
}

/* The size class of n: dump/size_classes.h's, then one above them. */
static unsigned class_of(size_t n)
{
	static const size_t upper[] = {
#define UPPER_BOUND(lo, hi, name) hi,
		MEMSHIM_SIZE_CLASSES(UPPER_BOUND)
#undef UPPER_BOUND
	};
	unsigned k = 0;
	while (k < MEMSHIM_SIZE_CLASS_COUNT && n > upper[k])
		k++;
	return k;
}

static bool take_lock(void)
{
	return __atomic_exchange_n(&store_lock, 1, __ATOMIC_ACQUIRE) == 0;
}

static void give_lock(void)
{
	__atomic_store_n(&store_lock, 0, __ATOMIC_RELEASE);
}

/* Neighbouring pairs added together: the store half full, blocks twice as long. */
static void halve_store(void)
{
	for (unsigned i = 0; i < STORE_PAIRS / 2; i++) {
		uint64_t *to = (uint64_t *)&store[i];
		const uint64_t *x = (const uint64_t *)&store[2 * i], *y = (const uint64_t *)&store[2 * i + 1];
		for (size_t w = 0; w < sizeof *store / sizeof(uint64_t); w++)
			to[w] = x[w] + y[w];
	}
	stored = STORE_PAIRS / 2;
	if (block_calls <= AB_MAX_BLOCK / 2)
		__atomic_store_n(&block_calls, 2 * block_calls, __ATOMIC_RELAXED);
}

/* The thread's finished pair into the store; left out if another
 * thread, or this one under a signal, holds the store (for as long as a
 * copy of one pair): which pairs are left out has nothing to do with their
 * arms. */
static void store_pair(const struct ab_thread *t)
{
	if (!take_lock())
		return;
	if (!store) {
		void *p = mmap(NULL, STORE_PAIRS * sizeof *store, PROT_READ | PROT_WRITE,
		               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		store = p == MAP_FAILED ? NULL : p;
	}
	if (store) {
		if (stored == STORE_PAIRS)
			halve_store();
		struct stored_pair *s = &store[stored++];
		for (unsigned arm = 0; arm < 2; arm++)
			for (int fn = 0; fn < FN_COUNT; fn++)
				for (unsigned k = 0; k < AB_PAIR_CLASSES; k++) {
					s->calls[arm][fn][k] = t->calls[arm][fn][k];
					s->ticks[arm][fn][k] = t->ticks[arm][fn][k];
				}
	}
	give_lock();
}

/* The thread's next block: its pair's second, with the other arm, or the
 * first of a new pair (the last one stored, its counts cleared). */
RECORDING_CODE(shared) __attribute__((noinline)) static void next_block(struct ab_thread *t)
{
	t->busy = true;
	timing_count_empty_region(); /* the timer's cost, beside the calls */
	if (t->block != 1) {
		if (t->block == 2)
			store_pair(t);
		for (unsigned arm = 0; arm < 2; arm++)
			for (int fn = 0; fn < FN_COUNT; fn++)
				for (unsigned k = 0; k < AB_PAIR_CLASSES; k++)
					t->calls[arm][fn][k] = t->ticks[arm][fn][k] = 0;
		t->arm = timing_random() >> 31; /* which arm runs the pair's first block */
		t->block = 1;
	} else {
		t->arm ^= 1;
		t->block = 2;
	}
	t->left = __atomic_load_n(&block_calls, __ATOMIC_RELAXED);
	t->busy = false;
}

RECORDING_CODE(shared) struct ab_thread *ab_enter(void)
{
	struct ab_thread *t = &me;
	if (__builtin_expect(!started || t->busy, 0))
		return NULL;
	if (__builtin_expect(t->left == 0, 0))
		next_block(t);
	t->left--;
	return t;
}

RECORDING_CODE(shared) void ab_leave(struct ab_thread *t, enum base_function fn, size_t n, uint64_t ticks)
{
	if (__builtin_expect(timing_interrupted(ticks, n), 0)) {
		__atomic_fetch_add(&dropped[fn][t->arm], 1, __ATOMIC_RELAXED);
		return;
	}
	unsigned k = class_of(n);
	t->calls[t->arm][fn][k]++;
	t->ticks[t->arm][fn][k] += ticks;
}

bool ab_start(void)
{
	if (!timing_clock_start("MEMSHIM_AB"))
		return false;
	block_calls = config_get()->ab_block;
	started = true;
	return true;
}

/* ns of `calls` calls that took `ticks`, the timer's cost `overhead` (ticks a call) off. */
static uint64_t net_ns(uint64_t calls, uint64_t ticks, double overhead, double ns_per_tick)
{
	double ns = ((double)ticks - (double)calls * overhead) * ns_per_tick;
	return ns > 0 ? (uint64_t)(ns + 0.5) : 0;
}

static bool write_pairs(int fd, double overhead, double ns_per_tick)
{
	static struct ab_pair p; /* static: the dump may run on a signal handler's stack */
	for (unsigned i = 0; i < stored; i++) {
		for (unsigned arm = 0; arm < 2; arm++)
			for (int fn = 0; fn < FN_COUNT; fn++)
				for (unsigned k = 0; k < AB_PAIR_CLASSES; k++) {
					uint64_t calls = store[i].calls[arm][fn][k];
					p.calls[arm][fn][k] = calls;
					p.ns[arm][fn][k] = net_ns(calls, store[i].ticks[arm][fn][k], overhead, ns_per_tick);
				}
		if (!hist_write_ab_pair(fd, &p))
			return false;
	}
	return true;
}

bool ab_write(int fd)
{
	const struct config *c = config_get();
	if (!started)
		return true;
	int saved_errno = errno;
	unsigned tries = 0;
	while (!take_lock() && ++tries < DUMP_LOCK_TRIES)
		__builtin_ia32_pause();
	double overhead = timing_overhead_ticks();
	bool ok = hist_write_ab(fd, c->ab_setting[0], c->ab_setting[1], block_calls, (const uint64_t (*)[2])dropped) &&
	          (!store || write_pairs(fd, overhead, timing_ns_per_tick()));
	if (tries < DUMP_LOCK_TRIES)
		give_lock();
	errno = saved_errno;
	return ok;
}

void ab_restart_in_child(void)
{
	timing_restart_in_child(); /* its empty regions are the parent's */
	stored = 0;
	store_lock = 0;
	for (int fn = 0; fn < FN_COUNT; fn++)
		dropped[fn][0] = dropped[fn][1] = 0;
	me.left = 0;
	me.block = 0;
	me.busy = false;
}
