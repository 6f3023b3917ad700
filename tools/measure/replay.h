/* Replaying a program's recorded windows of calls (MEMSHIM_SEQUENCES):
 * memshim bench --replay times them for every variant, and memshim tune
 * predicts a setting from them.  Each function's calls are replayed in the
 * order they were recorded, window after window, with their sizes, their
 * offsets mod 4096 and their distances (tools/measure/measure.c places them). */
#ifndef MEMSHIM_REPLAY_H
#define MEMSHIM_REPLAY_H

#include "dump/format.h"
#include "tools/measure/measure.h"
#include "dump/size_classes.h"

#include <stdbool.h>
#include <stddef.h>

/* Calls larger than this are left out of a replay: bench's largest size. */
#define REPLAY_MAX_SIZE (64u << 20)

/* The size classes a replay is timed in (dump/size_classes.h's, and
 * one past the top up to REPLAY_MAX_SIZE); a class is timed apart where
 * the windows hold REPLAY_MIN_CALLS of its calls. */
#define REPLAY_CLASSES (MEMSHIM_SIZE_CLASS_COUNT + 1)
#define REPLAY_MIN_CALLS 16
struct replay_class {
	size_t lo, hi;
	const char *label;
};
extern const struct replay_class replay_classes[REPLAY_CLASSES];

/* The class of a size; REPLAY_CLASSES past the last. */
unsigned replay_class_of(uint64_t size);


/* The calls of fn's windows with sizes in [lo, hi], in order, into *out;
 * false if there are none (or no memory: said). */
bool replay_gather(const struct dump *d, enum base_function fn, size_t lo, size_t hi, struct replay_calls *out);
void replay_free(struct replay_calls *r);

/* A replay case of those calls in `place`, labelled `label`. */
struct measure_case replay_case(enum base_function fn, const struct replay_calls *r, enum placement place,
                              const char *label);

#endif
