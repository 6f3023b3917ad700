/* Replaying recorded windows: gathering their calls, and the cases. */
#include "tools/measure/replay.h"

#include "tools/measure/caches.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define CLASS(lo, hi, name) { lo, hi, name },
const struct replay_class replay_classes[REPLAY_CLASSES] = {
	MEMSHIM_SIZE_CLASSES(CLASS){ MEMSHIM_SIZE_CLASS_TOP + 1, REPLAY_MAX_SIZE, "16-64 MiB" }
};
#undef CLASS

unsigned replay_class_of(uint64_t size)
{
	unsigned k = 0;
	while (k < REPLAY_CLASSES && size > replay_classes[k].hi)
		k++;
	return k;
}

bool replay_gather(const struct dump *d, enum base_function fn, size_t lo, size_t hi, struct replay_calls *out)
{
	size_t n = 0;
	*out = (struct replay_calls){ 0 };
	for (size_t w = 0; w < d->window_count; w++)
		n += d->windows[w].fn == fn ? d->windows[w].count : 0;
	if (!n)
		return false;
	if (!(out->calls = malloc(n * sizeof *out->calls))) {
		fprintf(stderr, "memshim: out of memory for the replayed calls\n");
		return false;
	}
	double bytes = 0;
	for (size_t w = 0; w < d->window_count; w++) {
		const struct dump_window *win = &d->windows[w];
		for (unsigned i = 0; win->fn == fn && i < win->count; i++) {
			const struct seq_call *c = &win->calls[i];
			if (c->size < lo || c->size > hi || c->size > REPLAY_MAX_SIZE)
				continue;
			out->calls[out->count++] = *c;
			bytes += (double)c->size;
			out->max = c->size > out->max ? c->size : out->max;
		}
	}
	if (!out->count) {
		replay_free(out);
		return false;
	}
	out->mean = bytes / (double)out->count;
	return true;
}

void replay_free(struct replay_calls *r)
{
	free(r->calls);
	*r = (struct replay_calls){ 0 };
}

struct measure_case replay_case(enum base_function fn, const struct replay_calls *r, enum placement place,
                              const char *label)
{
	struct measure_case c = { .fn = fn, .kind = CASE_REPLAY, .replay = r, .place = place, .src_offset = -1,
				.dst_offset = -1, .lo = 0, .hi = r->max };
	snprintf(c.label, sizeof c.label, "%s", label);
	snprintf(c.align, sizeof c.align, "recorded");
	return c;
}
