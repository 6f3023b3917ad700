/* Profiling (MEMSHIM_PROFILE): where the process's CPU time goes inside
 * memcpy, memmove and memset, by function, size bucket and caller.
 *
 * The idea is gperftools' CPU profiler: a timer on each thread's CPU
 * clock sends that thread a signal every 1/rate seconds of its CPU time,
 * and the handler looks at what the thread is doing.  Here it does not
 * unwind: the recording wrapper writes the call in progress (function,
 * size bucket, stack pointer, return address) into two thread-local words
 * as its first work, so the handler reads two words and the stack.  A sample counts for the CPU time since the one before
 * (1 + the timer's overruns, times the period), so the counts are CPU ns.
 *
 * Every thread that calls one of the functions gets its timer at its
 * first call; a thread that never calls them spends nothing inside them,
 * and the process's CPU clock still counts it in the whole.
 *
 * The signal is a real-time one (SIGRTMAX - 3), not SIGPROF, so programs
 * with their own SIGPROF profiler keep it; SA_RESTART keeps system calls
 * from failing with EINTR, and a thread's CPU-time timer cannot fire
 * while it sleeps.  If the program installs its own handler for our
 * signal, sampling stops there and the dump says so. */
#ifndef MEMSHIM_PROFILE_H
#define MEMSHIM_PROFILE_H

#include "dump/counts.h"
#include "shim/entry_set.h"

#include <stdbool.h>
#include <stddef.h>

/* The call in progress, as two words of the thread's own.
 *
 * mark: the stack pointer at the wrapper's entry (it points at the return
 * address) | fn + 1 in bits 0-1 (0: never marked) | the size bucket from
 * bit 48 (user addresses have 47 bits).  caller: the return address.  One
 * thread-local object, so the wrapper looks its address up once.
 *
 * Nothing is undone when the call returns: the wrapper jumps to the
 * variant, which returns straight to the caller.  The handler instead
 * tells a call in progress from a finished one by the stack: while the
 * call runs, the interrupted stack pointer is at or below the marked one
 * (and within a few KiB of it) and the return address is still in its
 * slot there; once the call has returned, the stack pointer is above it,
 * and a later call from the same frame puts another return address there. */
struct call_in_progress {
	uint64_t mark, caller;
};
extern __thread struct call_in_progress profile_call __attribute__((tls_model("initial-exec")));

#define PROFILE_BUCKET_SHIFT 48
#define PROFILE_FN_MASK 3u

/* Marks a call to fn of a size in `bucket` as in progress.  `cfa` is the
 * wrapper's __builtin_dwarf_cfa(): the stack pointer before the call. */
static inline __attribute__((always_inline)) void profile_mark(enum base_function fn, unsigned bucket,
                                                              void *cfa, void *caller)
{
	uint64_t mark = (uint64_t)bucket << PROFILE_BUCKET_SHIFT |
	                ((uintptr_t)cfa - sizeof(void *)) | (uint64_t)(fn + 1);
	/* The mark first: a sample between the two stores then sees the new
	 * call's slot holding the return address the old caller word names
	 * when the call site is the same (counted, to the right size), and
	 * drops the sample when it is not. */
	profile_call.mark = mark;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	profile_call.caller = (uint64_t)(uintptr_t)caller;
	__atomic_signal_fence(__ATOMIC_SEQ_CST); /* marked before any of the call's work */
}

/* Installs the handler and starts this thread's timer at `hz` samples per
 * CPU second; `targets` are the functions the recording wrappers call,
 * whose code counts as the copies'.  From the constructor.  False (said
 * once on stderr) if the timer cannot be had. */
bool profile_start(unsigned hz, const struct entry_set *targets);

/* Starts the calling thread's timer, once per thread; from a thread's
 * first recorded call.  Does nothing unless profile_start succeeded. */
void profile_thread_start(void);

/* In a forked child: forget the parent's samples, start this thread's timer. */
void profile_restart_in_child(void);

/* Writes the profile records of the dump; nothing when profiling is off.
 * Async-signal-safe. */
bool profile_write(int fd);

#endif
