/* What memshim's exported stub adds to a call, measured by the calibration
 * beside the variants: a copy of the stub in front of a function chosen at
 * run time. */
#ifndef MEMSHIM_STUB_PROBE_H
#define MEMSHIM_STUB_PROBE_H

#include "tools/calibrate/curves.h" /* STUB_PROBE_NAME */
#include "tools/measure/measure.h"

/* A candidate named STUB_PROBE_NAME whose three functions are the stub's
 * first-band path (a compare, a branch not taken, a jump through a slot)
 * in front of target's: timed against glibc's own, its ratio is what a
 * composition of bands costs the calls of its first band. */
struct measure_variant stub_probe_over(const struct measure_variant *target);

#endif
