/* What memshim's exported stub adds to a call, measured by the calibration
 * beside the variants: a copy of the stub in front of a function chosen at
 * run time. */
#ifndef MEMSHIM_STUB_PROBE_H
#define MEMSHIM_STUB_PROBE_H

#include "tools/util/calibration.h" /* STUB_PROBE_NAME */
#include "tools/util/measure.h"

/* A candidate named STUB_PROBE_NAME whose three functions are the stub's
 * first-band path (a compare, a branch not taken, a jump through a slot)
 * in front of target's: timed against glibc's own, its ratio is what a
 * composition of bands costs the calls of its first band. */
struct bench_variant stub_probe_over(const struct bench_variant *target);

#endif
