/* memshim ab's runs: each setting's environment, the command started with
 * its counters, and its measures. */
#include "config.h"

#include "tools/ab/ab.h"

#include "dispatch/config.h"

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
static void set_environment(const struct ab *a, const struct setting *s)
{
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
		setenv("MEMSHIM_HIST", path, 1);
		if (a->profile)
			setenv("MEMSHIM_PROFILE", a->profile, 1);
		if (a->timing)
			setenv("MEMSHIM_TIMING", a->timing, 1);
	}
}

/* The child: waits for the parent's counters, then runs the command. */
static void child(const struct ab *a, const struct setting *s, int go)
{
	char byte;
	set_environment(a, s);
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

/* One run of setting s; its measures in out[M_COUNT], M_TIMED by size class
 * in by_class; false if it could not start. */
static bool run_once(struct ab *a, struct setting *s, double *out, double by_class[AB_CLASSES])
{
	int go[2];
	if (pipe2(go, O_CLOEXEC) != 0)
		return false;
	pid_t pid = fork();
	if (pid == 0)
		child(a, s, go[0]);
	close(go[0]);
	if (pid < 0) {
		close(go[1]);
		return false;
	}
	int cycles = counter_open(pid, PERF_COUNT_HW_CPU_CYCLES);
	int instructions = counter_open(pid, PERF_COUNT_HW_INSTRUCTIONS);
	if (cycles < 0 && !a->counter_note[0])
		snprintf(a->counter_note, sizeof a->counter_note, "not counted: %s", counter_failure_reason(errno));
	a->counters = cycles >= 0 && instructions >= 0;
	int status;
	struct rusage usage;
	double start = seconds_now();
	ssize_t written = write(go[1], "g", 1);
	close(go[1]);
	while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR)
		;
	out[M_WALL] = seconds_now() - start;
	out[M_CPU] = (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
		     1e-6 * (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
	out[M_CYCLES] = (double)counter_read(cycles);
	out[M_INSTRUCTIONS] = (double)counter_read(instructions);
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
	if (cycles >= 0)
		close(cycles);
	if (instructions >= 0)
		close(instructions);
	if (written != 1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		s->failures++;
		s->last_status = status;
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
