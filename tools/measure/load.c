/* The machine's load while something measured (tools/measure/load.h). */
#include "tools/measure/load.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static double seconds(struct timespec t) { return (double)t.tv_sec + t.tv_nsec / 1e9; }

struct machine_time machine_time_now(void)
{
	struct machine_time m = { .busy = -1 };
	clock_gettime(CLOCK_MONOTONIC, &m.wall);
	struct timespec own;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &own);
	m.own = seconds(own);
	unsigned long long user, nice, sys, idle, iowait, irq, softirq, steal;
	FILE *f = fopen("/proc/stat", "r");
	if (f && fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &sys, &idle, &iowait, &irq,
			&softirq, &steal) == 8)
		m.busy = (double)(user + nice + sys + irq + softirq + steal) / (double)sysconf(_SC_CLK_TCK);
	if (f)
		fclose(f);
	return m;
}

double others_busy(struct machine_time a, struct machine_time b)
{
	double wall = seconds(b.wall) - seconds(a.wall), load[1];
	if (a.busy >= 0 && b.busy >= 0 && wall > 0) {
		double others = (b.busy - a.busy - (b.own - a.own)) / wall;
		return others > 0 ? others : 0;
	}
	return getloadavg(load, 1) == 1 && load[0] > 1 ? load[0] - 1 : 0;
}
