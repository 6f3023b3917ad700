/* memshim record: runs the command in a child, passes on to it the signals
 * record gets, and says what became of it (tools/record/record.h). */
#include "tools/record/record.h"

#include "dispatch/config.h"
#include "tools/util/launch.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* The command record runs, for the signal handler: its pid (0 before it
 * starts and once it is waited for), and whether it leads a process group
 * of its own (then the signal goes to the whole group). */
static volatile sig_atomic_t command_pid;
static volatile sig_atomic_t command_group;
static volatile sig_atomic_t signal_seen;      /* the last of them record got */
static volatile sig_atomic_t signal_forwarded; /* ... and sent on (not the terminal's) */
static const int forwarded_signals[] = { SIGTERM, SIGINT, SIGHUP };
#define FORWARDED (sizeof forwarded_signals / sizeof forwarded_signals[0])

/* SIGTERM, SIGINT or SIGHUP to record is passed on to the command, which
 * then ends (dumping, as the library does on these signals) or not, as it
 * chooses; record goes on waiting, and merges.  One that the terminal sent
 * (SI_KERNEL) reached the command already when it shares record's group. */
static void forward_signal(int sig, siginfo_t *info, void *context)
{
	(void)context;
	int saved = errno;
	signal_seen = sig;
	pid_t pid = command_pid;
	signal_forwarded = pid > 0 && (command_group || info->si_code != SI_KERNEL);
	if (signal_forwarded)
		kill(command_group ? -pid : pid, sig);
	errno = saved;
}

/* Installs forward_signal for each signal not ignored when record started
 * (one ignored, as under nohup, stays ignored, for the command too), and
 * blocks them in *blocked until the command's pid is known. */
static void watch_signals(sigset_t *blocked, sigset_t *before)
{
	sigemptyset(blocked);
	for (size_t i = 0; i < FORWARDED; i++) {
		struct sigaction old, sa = { .sa_sigaction = forward_signal, .sa_flags = SA_SIGINFO | SA_RESTART };
		sigemptyset(&sa.sa_mask);
		if (sigaction(forwarded_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN) {
			sigaction(forwarded_signals[i], &sa, NULL);
			sigaddset(blocked, forwarded_signals[i]);
		}
	}
	sigprocmask(SIG_BLOCK, blocked, before);
}

/* In the child, before it becomes the command: the signals as they were
 * when record started; its own process group when record has no terminal
 * (a terminal's job control and its signals need the command in record's
 * group); and SIGTERM if record dies (SIGKILL), so that it dumps. */
static void child_setup(pid_t parent, const sigset_t *before)
{
	for (size_t i = 0; i < FORWARDED; i++)
		if (signal(forwarded_signals[i], SIG_DFL) == SIG_IGN)
			signal(forwarded_signals[i], SIG_IGN);
	signal(SIGQUIT, SIG_DFL);
	if (command_group)
		setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		raise(SIGTERM); /* record died before prctl */
	sigprocmask(SIG_SETMASK, before, NULL);
}

/* Whether record runs under a terminal (its controlling terminal). */
static bool has_terminal(void)
{
	int fd = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

/* Runs argv (argv[0] the program) as memshim run does, in a child, and
 * waits for it, passing on the signals record gets; its exit status as a
 * shell gives it. */
int record_run_child(char **argv)
{
	sigset_t blocked, before;
	command_group = !has_terminal();
	watch_signals(&blocked, &before);
	config_get(); /* bad values said here, once: the child passes them on as said (run_exec) */
	pid_t parent = getpid(), pid = fork();
	if (pid == 0) {
		child_setup(parent, &before);
		_exit(run_exec("record", argv));
	}
	if (pid < 0) {
		fprintf(stderr, "memshim record: cannot start: %s\n", strerror(errno));
		return 126;
	}
	if (command_group)
		setpgid(pid, pid); /* as the child does: whichever runs first */
	command_pid = pid;
	sigprocmask(SIG_SETMASK, &before, NULL);
	/* waited for first without reaping it: its pid stays its own until
	 * command_pid forgets it, never a later process's */
	siginfo_t info;
	while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) != 0 && errno == EINTR)
		;
	command_pid = 0;
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 126;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* "SIGTERM"; a signal without a name as its number */
static const char *signal_name(int sig)
{
	static char name[32];
	const char *abbrev = sigabbrev_np(sig);
	if (abbrev)
		snprintf(name, sizeof name, "SIG%s", abbrev);
	else
		snprintf(name, sizeof name, "signal %d", sig);
	return name;
}

/* What became of the command, when record passed a signal on to it or
 * SIGKILL left it no chance to dump. */
void record_say_how_it_ended(int status, bool dumped)
{
	if (signal_seen) {
		fprintf(stderr, "memshim record: %s%s ", signal_name(signal_seen),
		        signal_forwarded ? ": passed on to the command, which"
		                         : " from the terminal: the command got it too, and");
		if (status > 128)
			fprintf(stderr, "ended by %s", signal_name(status - 128));
		else
			fprintf(stderr, "exited with status %d", status);
		fprintf(stderr, "; %s\n", dumped ? "the recording holds what its processes dumped" : "nothing was recorded");
	} else if (status == 128 + SIGKILL)
		fprintf(stderr, "memshim record: the command was killed by SIGKILL, which leaves a process no chance "
		                "to dump: %s\n", dumped ? "its own calls are not in the recording" : "nothing was recorded");
}

bool record_signal_seen(void)
{
	return signal_seen != 0;
}
