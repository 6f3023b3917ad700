/* The clocks the measurements read: a CPU-cycle counter where perf events
 * are allowed (memshim bench, tune, cpu-row), else CLOCK_MONOTONIC; and the
 * counters memshim ab opens on each run of its command. */
#include "tools/measure/clock.h"

#include <errno.h>
#include <stdbool.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

uint64_t monotonic_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int counter_open(pid_t pid, unsigned long long event)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof attr,
		.config = event,
		.exclude_kernel = 1, /* the calls run in user space; interrupts do not */
		.exclude_hv = 1,
	};
	if (pid != 0) { /* the child and what it starts, from its exec on */
		attr.disabled = 1;
		attr.inherit = 1;
		attr.enable_on_exec = 1;
	}
	return (int)syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

uint64_t counter_read(int fd)
{
	uint64_t v = 0;
	return fd >= 0 && read(fd, &v, sizeof v) == (ssize_t)sizeof v ? v : 0;
}

/* A counter that opens but never counts (some hypervisors) is no clock. */
static bool counter_counts(int fd)
{
	uint64_t before = counter_read(fd), start = monotonic_ns();
	volatile unsigned sink = 0;
	while (monotonic_ns() - start < 1000000)
		sink++;
	return counter_read(fd) > before;
}

const char *counter_failure_reason(int error)
{
	switch (error) {
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		return "none on this CPU or VM";
	case EACCES:
	case EPERM:
		return "perf events not allowed (perf_event_paranoid)";
	case ENOSYS:
		return "this kernel has no perf events";
	default:
		return "perf_event_open cannot open one here";
	}
}

void measure_clock_open(struct measure_clock *clock)
{
	int fd = counter_open(0, PERF_COUNT_HW_CPU_CYCLES);
	const char *why = fd < 0 ? counter_failure_reason(errno) : NULL;
	if (fd >= 0 && !counter_counts(fd)) {
		close(fd);
		fd = -1;
		why = "it counts nothing here";
	}
	clock->perf_fd = fd;
	clock->unit = fd >= 0 ? "cycles" : "ns";
	if (fd >= 0)
		snprintf(clock->description, sizeof clock->description,
			 "CPU cycles (perf_event_open PERF_COUNT_HW_CPU_CYCLES, user only)");
	else
		snprintf(clock->description, sizeof clock->description,
			 "clock_gettime(CLOCK_MONOTONIC) ns (no core-cycle counter: %s)", why);
}

uint64_t measure_clock_now(const struct measure_clock *clock)
{
	return clock->perf_fd >= 0 ? counter_read(clock->perf_fd) : monotonic_ns();
}

void measure_pin(char *what, size_t size)
{
	int cpu = sched_getcpu();
	cpu_set_t set;
	CPU_ZERO(&set);
	if (cpu >= 0)
		CPU_SET(cpu, &set);
	if (cpu >= 0 && sched_setaffinity(0, sizeof set, &set) == 0)
		snprintf(what, size, "pinned to CPU %d", cpu);
	else
		snprintf(what, size, "not pinned to a CPU (%s)", strerror(errno));
}
