/* The timing buffers of bench and the calibration (tools/measure/measure.c)
 * stay out of any child the tool forks, as the calibration's path trace
 * does between its timings: a fork write-protects every page a child
 * shares, and the parent's next write to each then takes a fault, and a
 * masked store whose bytes there are all masked off a microcode assist,
 * every time, inside the timings (D32). */
#include "tools/measure/measure.h"

#include "tests/unit_check.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* A size no other mapping of this program has: the buffers are made of it. */
#define ARENA_BYTES (26u << 20)
#define PAGE 4096u

/* The start of the mapping of ARENA_BYTES and a page on either side (no
 * masked span reaches past the buffers' ends into a page not present),
 * from /proc/self/maps; 0 if none. */
static uintptr_t find_arena(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	uintptr_t found = 0, lo, hi;
	while (f && !found && fgets(line, sizeof line, f))
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &lo, &hi) == 2 && hi - lo == ARENA_BYTES + 2 * PAGE)
			found = lo;
	if (f)
		fclose(f);
	return found;
}

static long minor_faults(void)
{
	struct rusage u;
	getrusage(RUSAGE_SELF, &u);
	return u.ru_minflt;
}

/* Whether a child forked now finds nothing mapped at the arena. */
static int child_lacks(uintptr_t arena)
{
	pid_t pid = fork();
	if (pid == 0) {
		unsigned char v;
		_exit(mincore((void *)arena, PAGE, &v) == 0 ? 1 : 0);
	}
	int status = 0;
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(void)
{
	check("the buffers are made", measure_buffers_init(0, ARENA_BYTES));
	uintptr_t arena = find_arena();
	check("they are one mapping of the size asked for, with a page either side", arena != 0);
	if (!arena)
		return checks_finish();
	check("a forked child does not share them", child_lacks(arena));
	long before = minor_faults();
	for (size_t at = 0; at < ARENA_BYTES + 2 * PAGE; at += PAGE)
		((volatile unsigned char *)arena)[at] = 1;
	long faults = minor_faults() - before;
	printf("  %ld faults writing %u pages after the fork\n", faults, ARENA_BYTES / PAGE + 2);
	check("after a fork, writing to every page of them takes no fault", faults < (long)(ARENA_BYTES / PAGE / 100));
	return checks_finish();
}
