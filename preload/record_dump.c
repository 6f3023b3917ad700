/* The recording's counts, for the dump: every thread's slot added up, the
 * figures the wrappers leave to the dump worked out, the counts forgotten
 * in a forked child.  The wrappers that count are in preload/record.c. */
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

/* What the wrappers leave to the dump: the calls of the main entry points
 * (memcpy, memmove, memset), in h, the sum of the slots, as the function's
 * calls less those of its other entry points.  (Read while other threads
 * run, such a figure may miss a call in flight, as any counter may; it
 * never goes below zero.) */
static void count_main_entries(struct histogram *h)
{
	for (int fn = 0; fn < FN_COUNT; fn++) {
		uint64_t calls = 0, others = 0;
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			calls += h->fn[fn].calls[b];
		enum entry_point main = fn == FN_MEMCPY ? E_MEMCPY : fn == FN_MEMMOVE ? E_MEMMOVE : E_MEMSET;
		for (int e = 0; e < E_COUNT; e++)
			if ((int)entry_point_base[e] == fn && e != (int)main)
				others += h->entry_calls[e];
		h->entry_calls[main] = calls > others ? calls - others : 0;
	}
}

void record_sum(struct histogram *out)
{
	unsigned used = slots_used();
	for (unsigned i = 0; i < used; i++)
		add_counters((uint64_t *)out, (const uint64_t *)&record_slots[i].hist,
		             sizeof *out / sizeof(uint64_t));
	count_main_entries(out);
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
