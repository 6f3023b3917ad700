/* Call sites of sampled calls: who called memcpy, found with libunwind. */
#ifndef MEMSHIM_CALLSITES_H
#define MEMSHIM_CALLSITES_H

#include "dump/format.h"

#include <stdbool.h>
#include <stddef.h>

/* Loads libunwind (with dlopen, so the library never depends on it at
 * start-up) and notes this library's own address range, whose frames are
 * skipped; a site keeps up to depth frames (HIST_STACK_MAX at most).
 * False, with a message, when it cannot. */
bool callsites_start(unsigned depth);

/* Records the stack of the current call, its caller first.  Never recurses: a copy made by
 * the unwinder itself is not sampled. */
void callsites_sample(enum base_function fn, size_t n);

void callsites_reset(void);

/* A return address as text, "symbol+0xoff(/path/object+0xrel)" or
 * "/path/object+0xrel" (dump/format.h), naming the call
 * instruction; at most size-1 characters. */
void callsites_describe(void *address, char *out, size_t size);

/* Writes every call site seen as "callsite" records to fd. */
void callsites_write(int fd);

#endif
