/* memshim ab's runs: each setting's environment, the command started with
 * its counters, and its measures; the one child runner of ab and ab
 * --in-process (ab_run_command). */
#include "config.h"

#include "tools/ab/ab.h"

#include "dispatch/config.h"
#include "tools/util/launch.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* The setting's variables, then (with --profile or --timing, for the
 * library's settings) theirs, which win: ab reads those dumps back. */
static void set_environment(const struct ab *a, const void *what)
{
	const struct setting *s = what;
	const char *preload = s->preload ? a->preload : a->original_preload;
	if (preload)
		setenv("LD_PRELOAD", preload, 1);
	else
		unsetenv("LD_PRELOAD");
	for (char *const *v = s->vars; *v; v++)
		putenv(*v);
	if ((a->profile || a->timing) && s->preload) {
		char path[4200];
		snprintf(path, sizeof path, "%s/h.%%p", a->dump_dir);
		launch_set_dump(path);
		if (a->profile)
			setenv("MEMSHIM_PROFILE", a->profile, 1);
		if (a->timing)
			setenv("MEMSHIM_TIMING", a->timing, 1);
	}
}

/* The child: its environment, then waits for the parent's counters, then
 * runs the command. */
static void child(const struct ab *a, ab_environment *set_environment, const void *what, int go)
{
	char byte;
	set_environment(a, what);
	if (!a->show_output) {
		int devnull = open("/dev/null", O_WRONLY);
		dup2(devnull, 1);
	}
	if (read(go, &byte, 1) != 1)
		_exit(127);
	execvp(a->command[0], a->command);
	fprintf(stderr, "memshim ab: cannot run %s: %s\n", a->command[0], strerror(errno));
	_exit(127);
}

/* The cycles and instructions counters of the child pid, -1 each where
 * none opens (said once in a->counter_note). */
static void open_counters(struct ab *a, pid_t pid, int counters[2])
{
	counters[0] = counter_open(pid, PERF_COUNT_HW_CPU_CYCLES);
	counters[1] = counter_open(pid, PERF_COUNT_HW_INSTRUCTIONS);
	if (counters[0] < 0 && !a->counter_note[0])
		snprintf(a->counter_note, sizeof a->counter_note, "not counted: %s", counter_failure_reason(errno));
	a->counters = counters[0] >= 0 && counters[1] >= 0;
}

/* A counter's count, and the counter closed. */
static double take_count(int fd)
{
	double n = (double)counter_read(fd);
	if (fd >= 0)
		close(fd);
	return n;
}

bool ab_run_command(struct ab *a, ab_environment *set_environment, const void *what, bool counted,
                    struct ab_run *r)
{
	int go[2], counters[2] = { -1, -1 };
	if (pipe2(go, O_CLOEXEC) != 0)
		return false;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0)
		child(a, set_environment, what, go[0]);
	close(go[0]);
	if (pid < 0) {
		close(go[1]);
		return false;
	}
	if (counted)
		open_counters(a, pid, counters);
	struct rusage usage;
	double start = seconds_now();
	ssize_t written = write(go[1], "g", 1);
	close(go[1]);
	pid_t waited;
	while ((waited = wait4(pid, &r->status, 0, &usage)) < 0 && errno == EINTR)
		;
	r->wall = seconds_now() - start;
	r->cpu = (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
		 1e-6 * (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
	r->cycles = take_count(counters[0]);
	r->instructions = take_count(counters[1]);
	if (written != 1) /* the child never got to run the command */
		r->status = 127 << 8;
	return waited == pid;
}

/* One run of setting s; its measures in out[M_COUNT], M_TIMED by size class
 * in by_class; false if it could not start. */
static bool run_once(struct ab *a, struct setting *s, double *out, double by_class[AB_CLASSES])
{
	struct ab_run r;
	if (!ab_run_command(a, set_environment, s, true, &r))
		return false;
	out[M_WALL] = r.wall;
	out[M_CPU] = r.cpu;
	out[M_CYCLES] = r.cycles;
	out[M_INSTRUCTIONS] = r.instructions;
	struct ab_fn_time inside = { 0 };
	if ((a->profile || a->timing) && s->preload)
		ab_profile_take(a->dump_dir, &inside, &s->notes);
	out[M_FN] = inside.profile;
	if (a->profile && inside.profile > 0) {
		a->recording_ns += inside.recording;
		a->recording_runs++;
	}
	out[M_TIMED] = inside.timed;
	memcpy(by_class, inside.timed_class, sizeof inside.timed_class);
	for (unsigned c = 0; c < AB_CLASSES; c++)
		a->class_timed_calls[s - a->settings][c] += inside.timed_class_calls[c];
	if (!WIFEXITED(r.status) || WEXITSTATUS(r.status) != 0) {
		s->failures++;
		s->last_status = r.status;
	}
	return true;
}

/* One run of every setting, in order: round r. */
int ab_run_round(struct ab *a, unsigned r)
{
	double measures[M_COUNT], by_class[AB_CLASSES];
	for (unsigned i = 0; i < a->count; i++) {
		if (!run_once(a, &a->settings[i], measures, by_class)) {
			fprintf(stderr, "memshim ab: cannot start a run: %s\n", strerror(errno));
			return 1;
		}
		for (enum measure m = 0; m < M_COUNT; m++)
			series(a, i, m)[r] = m == M_CYCLES || m == M_INSTRUCTIONS ? measures[m] / 1e6 : measures[m];
		for (unsigned c = 0; c < AB_CLASSES; c++)
			class_series(a, i, c)[r] = by_class[c];
	}
	return 0;
}
