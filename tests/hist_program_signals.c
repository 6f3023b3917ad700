/* tests/hist_program's modes for tests/test_signals.sh: children ended by
 * SIGTERM under three kinds of handler, and what sigaction, signal() and the
 * kernel say of the dispositions (usage in tests/hist_program.c). */
#include "tests/hist_program.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void reraise_default(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	raise(sig);
}

static void exit_seven(int sig)
{
	(void)sig;
	_exit(7);
}

static void term_child(int k, long times, int ready)
{
	sequence(times * (k + 2));
	if (k == 1) {
		struct sigaction sa = { .sa_handler = reraise_default };
		sigemptyset(&sa.sa_mask);
		sigaction(SIGTERM, &sa, NULL);
	} else if (k == 2) {
		signal(SIGTERM, exit_seven);
	}
	if (write(ready, "r", 1) != 1)
		_exit(2);
	for (;;)
		pause();
}

void run_term_children(long times)
{
	sequence(times);
	fflush(stdout);
	int ready[2];
	pid_t children[3];
	if (pipe(ready) != 0)
		exit(1);
	for (int k = 0; k < 3; k++)
		if ((children[k] = fork()) == 0)
			term_child(k, times, ready[1]);
	char c;
	for (int k = 0; k < 3; k++)
		if (read(ready[0], &c, 1) != 1)
			exit(1);
	for (int k = 0; k < 3; k++) {
		int status;
		kill(children[k], SIGTERM);
		waitpid(children[k], &status, 0);
		if (WIFSIGNALED(status))
			printf("child %d signal %d\n", (int)children[k], WTERMSIG(status));
		else
			printf("child %d exit %d\n", (int)children[k], WEXITSTATUS(status));
	}
}

static const char *disposition(int sig)
{
	struct sigaction now;
	sigaction(sig, NULL, &now);
	return now.sa_handler == SIG_DFL ? "default" : now.sa_handler == SIG_IGN ? "ignore" : "handler";
}

/* Whether signal sig's bit is set in the /proc/self/status line `field`. */
static int kernel_mask_has(const char *field, int sig)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long long mask = 0;
	size_t len = strlen(field);
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, field, len) == 0 && line[len] == ':')
			mask = strtoull(line + len + 1, NULL, 16);
	if (f)
		fclose(f);
	return (mask >> (sig - 1)) & 1;
}

void run_dispositions(void)
{
	printf("start TERM %s INT %s HUP %s\n", disposition(SIGTERM), disposition(SIGINT), disposition(SIGHUP));
	signal(SIGTERM, exit_seven);
	printf("signal gives back its handler: %s\n", signal(SIGTERM, SIG_DFL) == exit_seven ? "yes" : "no");
	signal(SIGTERM, SIG_IGN);
	printf("SIG_IGN reaches the kernel: %s\n", kernel_mask_has("SigIgn", SIGTERM) ? "yes" : "no");
	signal(SIGTERM, SIG_DFL);
	printf("the kernel shows TERM caught: %s\n", kernel_mask_has("SigCgt", SIGTERM) ? "yes" : "no");
}
