/* The recording's counts, for the dump: every thread's slot added up, its
 * front words (preload/record_slots.h) with its histogram, the counts
 * forgotten in a forked child.  The wrappers that count are in preload/record.c. */
#include "preload/record.h"

#include "preload/callsites.h"
#include "preload/record_slots.h"

static void add_counters(uint64_t *to, const uint64_t *from, size_t count)
{
	for (size_t i = 0; i < count; i++)
		to[i] += __atomic_load_n(&from[i], __ATOMIC_RELAXED);
}

/* The slots in use: those claimed, and the shared one past MAX_SLOTS. */
static unsigned slots_used(void)
{
	unsigned claimed = __atomic_load_n(&record_slots_claimed, __ATOMIC_RELAXED);
	return claimed < MAX_SLOTS ? claimed : MAX_SLOTS + 1;
}

static void less(uint64_t *counter, uint64_t n) { *counter -= n < *counter ? n : *counter; }

/* Adds a front word `v` (entry point e, value 0 or not, bucket b) to h,
 * whose calls the slot's histogram already counts a whole group ahead:
 * the calls of the group still to come are taken off.  (A dump in a signal
 * handler between a group's first call and its count may find fewer.) */
static void front_add(struct histogram *h, enum entry_point e, bool zero, unsigned b, uint64_t v)
{
	uint64_t to_come = v / FRONT_CALL, bytes = v & FRONT_BYTES;
	struct function_histogram *f = &h->fn[entry_point_base[e]];
	less(&f->calls[b], to_come);
	less(&h->entry_calls[e], to_come);
	f->bytes[b] += bytes;
	if (zero) {
		less(&f->zero_calls, to_come);
		f->zero_bytes += bytes;
	}
}

/* A slot's front words, added to h. */
static void add_front(struct histogram *h, const struct slot *s)
{
	for (int zero = 0; zero < 2; zero++)
		for (int e = 0; e < E_COUNT; e++)
			for (unsigned b = 0; b < FRONT_BUCKETS; b++)
				front_add(h, e, zero, b, __atomic_load_n(&s->front[zero][e][b], __ATOMIC_RELAXED));
}

void record_sum(struct histogram *out)
{
	unsigned used = slots_used();
	for (unsigned i = 0; i < used; i++) {
		add_counters((uint64_t *)out, (const uint64_t *)&record_slots[i].hist,
		             sizeof *out / sizeof(uint64_t));
		add_front(out, &record_slots[i]);
	}
}

void record_sum_timing(struct timing_counts *out)
{
	unsigned used = record_timing_counted ? slots_used() : 0;
	for (unsigned i = 0; i < used; i++)
		timing_add(out, &record_slots[i].timed);
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
		struct slot *s = &record_slots[i];
		zero_counters((uint64_t *)&s->hist, sizeof s->hist / sizeof(uint64_t));
		zero_counters(&s->front[0][0][0], sizeof s->front / sizeof(uint64_t));
		if (record_timing_counted) /* untouched otherwise: no page of them is made */
			zero_counters((uint64_t *)&s->timed, sizeof s->timed / sizeof(uint64_t));
		if (s->seq)
			seq_reset(s->seq);
	}
	callsites_reset();
	if (record_timing_counted)
		timing_restart_in_child();
}

bool record_write_sequences(int fd)
{
	static struct seq_state *states[MAX_SLOTS]; /* static: too big for a signal handler's stack */
	unsigned used = slots_used(), count = 0;
	for (unsigned i = 0; i < used && i < MAX_SLOTS; i++)
		states[count++] = __atomic_load_n(&record_slots[i].seq, __ATOMIC_ACQUIRE);
	return seq_write(fd, states, count);
}
