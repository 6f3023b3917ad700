/* Windows of consecutive calls: see preload/sequences.h.  Everything here
 * runs on the recording's slow path or the dump's, so it allocates nothing
 * but its mapping and calls nothing that may copy. */
#include "preload/sequences.h"

#include "preload/recording_code.h"

#include <stdint.h>
#include <sys/mman.h>

#define SEQ_FIRST_GAP 4   /* the first G: this many windows' lengths */
#define SEQ_MAX_GAP (1u << 30)
/* An open window closes, shorter, after this many lengths of the thread's
 * calls without one of its function: a function called only at start-up
 * would otherwise keep every later call on the slow path. */
#define SEQ_IDLE_LENGTHS 16

struct seq_window {
	uint32_t fn, count;
	struct seq_call calls[];
};

struct seq_state {
	unsigned length;    /* calls a window holds */
	unsigned level;     /* G is length * SEQ_FIRST_GAP << level */
	unsigned kept;      /* complete windows, windows 0 .. kept-1 */
	bool open;          /* window `kept` is being filled */
	unsigned idle;      /* the thread's calls since the open window's last one */
	unsigned to_window; /* calls until the next window starts; 0: not drawn yet */
	uint32_t random;    /* xorshift32 */
	size_t stride;      /* bytes a window takes */
	char windows[];     /* SEQ_KEPT of them, and a spare (below) */
};

static struct seq_window *window_at(const struct seq_state *q, unsigned i)
{
	return (struct seq_window *)(q->windows + (size_t)i * q->stride);
}

RECORDING_CODE(shared) struct seq_state *seq_thread_start(unsigned length)
{
	size_t stride = sizeof(struct seq_window) + (size_t)length * sizeof(struct seq_call);
	/* A signal handler that copies can run a window's code in the middle of
	 * the same thread's: the counts are bounded so that it can only spoil
	 * a window, and the spare window past the last takes what lands there. */
	size_t size = sizeof(struct seq_state) + (SEQ_KEPT + 1) * stride;
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	struct seq_state *q = p; /* zero-filled */
	q->length = length;
	q->stride = stride;
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	q->random = (lo ^ hi ^ (uint32_t)(uintptr_t)q ^ 0x9e3779b9u) | 1;
	return q;
}

static uint32_t next_random(struct seq_state *q)
{
	uint32_t x = q->random;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return q->random = x;
}

/* Uniform from 1 to 2G-1: G on average, and no period. */
static unsigned draw_gap(struct seq_state *q)
{
	uint64_t g = (uint64_t)q->length * SEQ_FIRST_GAP << q->level;
	g = g < SEQ_MAX_GAP ? g : SEQ_MAX_GAP;
	return 1 + (unsigned)(((uint64_t)next_random(q) * (2 * g - 1)) >> 32);
}

/* The reservoir is full: G doubles, and each window stays with probability 1/2. */
static void thin(struct seq_state *q)
{
	unsigned kept = 0;
	for (unsigned i = 0; i < q->kept; i++) {
		if (!(next_random(q) & 1))
			continue;
		if (kept != i) {
			struct seq_window *from = window_at(q, i), *to = window_at(q, kept);
			to->fn = from->fn;
			to->count = from->count;
			for (unsigned c = 0; c < from->count; c++)
				to->calls[c] = from->calls[c];
		}
		kept++;
	}
	q->kept = kept;
	if ((uint64_t)q->length * SEQ_FIRST_GAP << (q->level + 1) <= SEQ_MAX_GAP)
		q->level++;
}

static void close_window(struct seq_state *q)
{
	q->open = false;
	if (q->kept < SEQ_KEPT && window_at(q, q->kept)->count)
		q->kept++;
	q->to_window = draw_gap(q);
}

static void add_call(struct seq_state *q, const void *d, const void *s, size_t n)
{
	struct seq_window *w = window_at(q, q->kept);
	if (w->count >= q->length) {
		close_window(q);
		return;
	}
	struct seq_call *c = &w->calls[w->count++];
	c->size = n;
	c->dst_off = (uint16_t)((uintptr_t)d & 4095);
	c->src_off = s ? (uint16_t)((uintptr_t)s & 4095) : 0;
	c->distance = s ? (int64_t)((uintptr_t)d - (uintptr_t)s) : 0;
	q->idle = 0;
	if (w->count == q->length)
		close_window(q);
}

/* A window is due at this call: opened, unless the thinning that a full
 * reservoir needs drops it as it would have dropped it kept. */
static void open_window(struct seq_state *q, enum base_function fn)
{
	if (q->kept >= SEQ_KEPT) {
		thin(q);
		if (!(next_random(q) & 1)) {
			q->to_window = draw_gap(q);
			return;
		}
	}
	struct seq_window *w = window_at(q, q->kept);
	w->fn = fn;
	w->count = 0;
	q->open = true;
	q->idle = 0;
}

RECORDING_CODE(shared) bool seq_count(struct seq_state *q, unsigned passed, enum base_function fn,
                                      const void *d, const void *s, size_t n)
{
	if (!q->open) {
		if (q->to_window == 0)
			q->to_window = draw_gap(q);
		if (q->to_window > passed) {
			q->to_window -= passed;
			return false;
		}
		open_window(q, fn);
	}
	if (q->open && window_at(q, q->kept)->fn == fn)
		add_call(q, d, s, n);
	else if (q->open && ++q->idle > SEQ_IDLE_LENGTHS * q->length)
		close_window(q);
	return q->open;
}

unsigned seq_calls_to_window(const struct seq_state *q)
{
	return q->to_window ? q->to_window : 1;
}

void seq_reset(struct seq_state *q)
{
	q->kept = q->level = q->idle = q->to_window = 0;
	q->open = false;
}

/* ---- the dump ---- */

/* Every thread's windows are brought to one G, the largest, by keeping
 * every 2^k-th of a thread whose G is 2^k times smaller, then halved
 * together until at most HIST_WINDOWS_MAX are left.  Returns the extra
 * halvings; *top the largest level. */
static unsigned dump_halvings(struct seq_state *const *states, unsigned count, unsigned *top)
{
	*top = 0;
	for (unsigned i = 0; i < count; i++)
		if (states[i] && states[i]->kept && states[i]->level > *top)
			*top = states[i]->level;
	for (unsigned extra = 0;; extra++) {
		uint64_t total = 0;
		for (unsigned i = 0; i < count; i++) {
			const struct seq_state *q = states[i];
			if (q && q->kept) {
				unsigned shift = *top - q->level + extra;
				total += shift >= 32 ? 1 : (q->kept + (1ull << shift) - 1) >> shift;
			}
		}
		if (total <= HIST_WINDOWS_MAX || extra >= 32)
			return extra;
	}
}

bool seq_write(int fd, struct seq_state *const *states, unsigned count)
{
	unsigned top, length = 0;
	unsigned extra = dump_halvings(states, count, &top);
	for (unsigned i = 0; i < count; i++)
		if (states[i] && states[i]->kept && states[i]->length > length)
			length = states[i]->length;
	if (!length)
		return true;
	uint64_t weight = (uint64_t)length * SEQ_FIRST_GAP << (top + extra);
	bool ok = hist_write_sequences(fd, length, weight);
	for (unsigned i = 0; i < count && ok; i++) {
		const struct seq_state *q = states[i];
		if (!q)
			continue;
		unsigned shift = top - q->level + extra;
		uint64_t step = shift >= 32 ? UINT64_MAX : 1ull << shift;
		unsigned kept = q->kept < SEQ_KEPT ? q->kept : SEQ_KEPT; /* read while the thread runs */
		for (uint64_t w = 0; w < kept && ok; w += step) {
			const struct seq_window *win = window_at(q, (unsigned)w);
			unsigned calls = win->count < q->length ? win->count : q->length;
			if (win->fn < FN_COUNT && calls)
				ok = hist_write_window(fd, (enum base_function)win->fn, win->calls, calls);
		}
	}
	return ok;
}
