/* Where the recording's own code lies, so that the profiler can tell a
 * sample taken there from one in the variant.  The recording wrappers go
 * in sections by base function (memcpy, memmove, memset), so that a
 * sample in one needs no mark to know its function, and the code they
 * share (slow paths, a thread's first call, call-site sampling, timing) in
 * "shared".  A module of its own, below the recording, the profiler, call
 * sites and timing, which all name it. */
#ifndef MEMSHIM_RECORDING_CODE_H
#define MEMSHIM_RECORDING_CODE_H

#include <stdint.h>

#define RECORDING_CODE(part) __attribute__((section("memshim_recording_" #part)))

/* The base function whose wrappers hold pc; FN_COUNT if the code they
 * share does; -1 if none of the recording's code does.  Async-signal-safe. */
int record_code_function(uintptr_t pc);

#endif
