#include "tools/glibc_tunables.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <unistd.h>

static bool read_done;
static uint64_t movsb, stosb;

/* The dynamic linker this program runs under. */
static const char *loader_path(void)
{
	Dl_info info;
	void *base = (void *)getauxval(AT_BASE);
	return base && dladdr(base, &info) && info.dli_fname && info.dli_fname[0] == '/' ? info.dli_fname : NULL;
}

static void parse(FILE *in)
{
	char line[256];
	while (fgets(line, sizeof line, in)) {
		const char *value = strchr(line, '=');
		if (!value)
			continue;
		if (strncmp(line, "x86.cpu_features.rep_movsb_threshold=", 37) == 0)
			movsb = strtoull(value + 1, NULL, 0);
		else if (strncmp(line, "x86.cpu_features.rep_stosb_threshold=", 37) == 0)
			stosb = strtoull(value + 1, NULL, 0);
	}
}

/* Runs `ld.so --list-diagnostics` with nothing preloaded and reads its answer. */
static void read_diagnostics(void)
{
	read_done = true;
	const char *loader = loader_path();
	int pipefd[2];
	if (!loader || pipe(pipefd) != 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], STDOUT_FILENO);
		int null = open("/dev/null", O_WRONLY); /* an older loader's complaint is no message of ours */
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		close(pipefd[0]);
		close(pipefd[1]);
		unsetenv("LD_PRELOAD");
		execl(loader, loader, "--list-diagnostics", (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	FILE *in = pid > 0 ? fdopen(pipefd[0], "r") : NULL;
	if (in) {
		parse(in);
		fclose(in);
	} else {
		close(pipefd[0]);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

uint64_t glibc_rep_movsb_threshold(void)
{
	if (!read_done)
		read_diagnostics();
	return movsb;
}

uint64_t glibc_rep_stosb_threshold(void)
{
	if (!read_done)
		read_diagnostics();
	return stosb;
}
