/* The call-site table's clearing and walking (preload/site_table.h). */
#include "preload/site_table.h"

#include "preload/callsites.h"

void site_table_clear(struct site_table *t)
{
	for (unsigned i = 0; i < SITE_TABLE_SIZE; i++)
		t->entry[i] = (struct site_count){ 0, 0, 0 };
}

bool site_table_write(const struct site_table *t,
                      bool (*write)(void *context, enum base_function fn, uint64_t events, uint64_t amount,
                                    const char *frame),
                      void *context)
{
	for (unsigned i = 0; i < SITE_TABLE_SIZE; i++) {
		const struct site_count *s = &t->entry[i];
		uint64_t key = __atomic_load_n(&s->key, __ATOMIC_RELAXED);
		if (!key || !s->events)
			continue;
		char frame[512];
		callsites_describe((void *)(uintptr_t)(key >> 2), frame, sizeof frame);
		if (!write(context, (enum base_function)((key & 3) - 1), s->events, s->amount, frame))
			return false;
	}
	return true;
}
