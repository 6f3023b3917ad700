/* The clocks the measurements read: a CPU-cycle counter (perf_event_open,
 * user space only) where one counts, else CLOCK_MONOTONIC. */
#ifndef MEMSHIM_CLOCK_H
#define MEMSHIM_CLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* CLOCK_MONOTONIC in ns. */
uint64_t monotonic_ns(void);

/* A user-space hardware counter of `event` (PERF_COUNT_HW_*): pid 0, this
 * thread, counting at once; else the child pid, before its exec, and every
 * process it starts, counting from its exec.  -1 (errno set) if none. */
int counter_open(pid_t pid, unsigned long long event);

/* The count so far; 0 for fd -1 or a failed read. */
uint64_t counter_read(int fd);

/* Why perf_event_open gave no counter (its errno), in words. */
const char *counter_failure_reason(int error);

/* The clock a measurement reads: the cycle counter, or CLOCK_MONOTONIC. */
struct measure_clock {
	int perf_fd;      /* a CPU-cycle counter, or -1 for CLOCK_MONOTONIC */
	const char *unit; /* "cycles" or "ns" */
	char description[160];
};
void measure_clock_open(struct measure_clock *clock);
uint64_t measure_clock_now(const struct measure_clock *clock);

/* Pins this thread to the CPU it runs on; fills `what` with the outcome. */
void measure_pin(char *what, size_t size);

#endif
