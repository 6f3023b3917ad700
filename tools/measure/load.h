/* What the rest of the machine did while something measured: the CPU time
 * /proc/stat counts busy (all but idle and iowait; steal too: a vCPU the
 * host took away is as much of a disturbance) less this process's own,
 * taken at the start and at the end.  A measurement on a busy machine moves
 * from one run to the next (D33); its command says so. */
#ifndef MEMSHIM_LOAD_H
#define MEMSHIM_LOAD_H

#include <time.h>

struct machine_time {
	struct timespec wall;
	double busy, own; /* seconds; busy < 0: /proc/stat unreadable */
};

/* The machine's and this process's CPU time now. */
struct machine_time machine_time_now(void);

/* The CPUs that other work kept busy on average between a and b; where
 * /proc/stat cannot be read, the one-minute load average beyond this
 * process. */
double others_busy(struct machine_time a, struct machine_time b);

#endif
