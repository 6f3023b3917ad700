/* A program with a known sequence of calls, for the recording tests.
 *
 *   hist_program MODE [N]
 *     calls N       the sequence N times, then exit
 *     period N      N copies whose sizes cycle 1..64 (period 64)
 *     overlap N     N memmoves of 100 bytes 8 bytes up
 *     small N       N copies of 0 to 16 bytes at random places in L1
 *     kib N         N copies of 1025 to 4096 bytes at random places in L1
 *     threads N     16 threads run the sequence N times each
 *     signals N     the sequence N times while another thread keeps
 *                   signalling this one, whose handler copies 24 bytes;
 *                   prints how many times the handler ran
 *     fork N        the sequence N times in the parent and 2N in a child
 *     exec N        the sequence N times, then exec this program with "calls 2N"
 *     _Exit N       the sequence N times, then _Exit(0)
 *     interval N    the sequence N times, sleep 2.5 s, then end with the raw
 *                   exit_group system call (no exit dump)
 *     sigdump N     the sequence N times, raise SIGUSR1, then end the same way
 *   For tests/test_lifecycle.sh:
 *     thread-signals N  16 threads run the sequence N times each while another
 *                   thread keeps signalling all 16, whose handler copies 24
 *                   bytes; prints how many times the handler ran
 *     vfork-exec N  the sequence N times, then vfork and exec this program
 *                   with "calls 2N"; prints "child PID"
 *     vfork-exit N  the sequence N times, then vfork a child that calls
 *                   _exit(0) at once, then the sequence N times more and
 *                   exit; prints "child PID"
 *     thread-exec N the sequence N times, then a second thread execs this
 *                   program with "calls 2N"
 *     thread-fork N the sequence N times, then a second thread forks a child
 *                   that runs it 2N times; prints "child PID"
 *     thread-exit N the sequence N times in main and N times in a second
 *                   thread, which then calls exit(0) while main waits
 *     dumped-exit N PATH   the sequence N times, wait until PATH holds a
 *     dumped-kill N PATH   complete dump with these N (an interval dump),
 *                   then _exit(0) / SIGKILL itself
 *     dump-storm N PATH    the sequence N times, wait as above, print
 *                   "dumped", then raise SIGUSR1 for ever (killed by the test)
 *     sigterm N     the sequence N times, raise SIGTERM, then print
 *                   "survived" and exit 3
 *     dlopen-loop LIB K    K times: dlopen LIB, call its dlcopy(), dlclose;
 *                   then the sequence once
 *   For tests/test_signals.sh:
 *     term-children N  the sequence N times, then 3 children that run it
 *                   2N, 3N and 4N times and wait: the first leaves SIGTERM
 *                   as it is; the second installs a handler with sigaction
 *                   that puts SIG_DFL back and raises the signal again; the
 *                   third, with signal(), a handler that calls _exit(7).
 *                   Each is sent SIGTERM; prints "child PID STATUS" for
 *                   each ("signal 15", "exit 7")
 *     dispositions  prints what sigaction says of TERM, INT and HUP at
 *                   start ("start TERM default INT default HUP ignore");
 *                   then whether signal() gives back the handler it set,
 *                   whether SIG_IGN reaches the kernel (/proc/self/status),
 *                   and whether the kernel shows TERM caught
 *
 * One sequence: memcpy 100 and 4096 bytes, mempcpy 17, memmove 200 bytes
 * overlapping with the destination after and before the source and 2050
 * bytes not overlapping, memset 1000 bytes of 0, 33 of 7 and 20000 of 1
 * (past the sizes the recording looks its bucket up for), bzero 5.  Every
 * copy but the second memmove has (dst - src) mod 4096 in 1..63; the
 * recording looks at that from 2 KiB (the 4096- and 2050-byte copies).
 * It prints "pid P" first. */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/hist_program.h"

/* The destination starts 16 bytes past the source in the page, so that the
 * copies between them fall at a near distance for 4 KiB aliasing (1..63). */
static struct {
	char src[8192], dst[8192 + 16];
} buffers __attribute__((aligned(4096)));
#define src buffers.src
#define dst (buffers.dst + 16)
static char overlap[512], big[20000];

void sequence(long times)
{
	for (long i = 0; i < times; i++) {
		memcpy(dst, src, 100);
		memcpy(dst, src, 4096);
		mempcpy(dst, src, 17);
		memmove(overlap + 8, overlap, 200);
		memmove(overlap, overlap + 8, 200);
		memmove(dst + 4096, src, 2050);
		memset(dst, 0, 1000);
		memset(dst, 7, 33);
		memset(big, 1, sizeof big);
		bzero(dst, 5);
	}
}

/* Copies that repeat with period 64, the size (1 to 64) telling the phase. */
static void run_period(long times)
{
	for (long i = 0; i < times; i++)
		memcpy(dst, src, (size_t)(1 + i % 64));
}

/* Copies of lo to hi bytes at random, at
 * random places in L1, as bench's class case draws them. */
static void run_random(long times, size_t lo, size_t hi)
{
	uint32_t x = 12345;
	for (long i = 0; i < times; i++) {
		x = x * 1103515245u + 12345u;
		size_t n = lo + ((x >> 8) % (hi - lo + 1)), at = (x >> 20) & 1023;
		memcpy(dst + at, src + ((at * 7) & 1023), n);
	}
}

static void run_overlap(long times)
{
	for (long i = 0; i < times; i++)
		memmove(overlap + 8, overlap, 100);
}

static void *sequence_thread(void *times)
{
	sequence((long)times);
	return NULL;
}

static void run_threads(long times)
{
	pthread_t threads[16];
	for (int i = 0; i < 16; i++)
		pthread_create(&threads[i], NULL, sequence_thread, (void *)times);
	for (int i = 0; i < 16; i++)
		pthread_join(threads[i], NULL);
}

static volatile sig_atomic_t handled;
static volatile int stop_signalling;

static void copy_in_handler(int sig)
{
	static struct {
		char a[64], b[64]; /* 4032 apart mod 4096: not a near distance */
	} h;
	(void)sig;
	memcpy(h.a, h.b, 24);
	handled++;
}

static void *signaller(void *target)
{
	struct timespec pause = { 0, 200000 };
	while (!stop_signalling) {
		pthread_kill(*(pthread_t *)target, SIGUSR2);
		nanosleep(&pause, NULL);
	}
	return NULL;
}

static void run_with_signals(long times)
{
	signal(SIGUSR2, copy_in_handler);
	pthread_t self = pthread_self(), thread;
	pthread_create(&thread, NULL, signaller, &self);
	sequence(times);
	stop_signalling = 1;
	pthread_join(thread, NULL);
	signal(SIGUSR2, SIG_IGN);
	printf("handled %d\n", (int)handled);
}

static void run_fork(long times)
{
	sequence(times);
	fflush(stdout);
	pid_t child = fork();
	if (child == 0) {
		sequence(2 * times);
		exit(0);
	}
	int status;
	waitpid(child, &status, 0);
	printf("child %d\n", (int)child);
}

/* ---- lifecycle modes ---- */

static pthread_t workers[16];
static volatile int workers_done, stop_all;
static int handled_all;

static void copy_in_handler_counted(int sig)
{
	static struct {
		char a[64], b[64]; /* 4032 apart mod 4096: not a near distance */
	} h;
	(void)sig;
	memcpy(h.a, h.b, 24);
	__atomic_fetch_add(&handled_all, 1, __ATOMIC_RELAXED);
}

static pthread_barrier_t finish_line;

static void *worker(void *times)
{
	sigset_t usr2;
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	pthread_sigmask(SIG_UNBLOCK, &usr2, NULL);
	sequence((long)times);
	__atomic_fetch_add(&workers_done, 1, __ATOMIC_RELAXED);
	/* Signals sent before the signaller reaches the barrier are pending
	 * here by then, and handled before this thread gets past it. */
	pthread_barrier_wait(&finish_line);
	return NULL;
}

static void *signal_all(void *unused)
{
	(void)unused;
	struct timespec pause = { 0, 100000 };
	while (__atomic_load_n(&workers_done, __ATOMIC_RELAXED) < 16) {
		for (int i = 0; i < 16; i++)
			pthread_kill(workers[i], SIGUSR2);
		nanosleep(&pause, NULL);
	}
	pthread_barrier_wait(&finish_line);
	return NULL;
}

static void run_thread_signals(long times)
{
	struct sigaction sa = { .sa_handler = copy_in_handler_counted, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	pthread_barrier_init(&finish_line, NULL, 17);
	/* The workers start with SIGUSR2 blocked (and unblock it): none is
	 * signalled before the worker's own start. */
	sigset_t usr2, old;
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &usr2, &old);
	for (int i = 0; i < 16; i++)
		pthread_create(&workers[i], NULL, worker, (void *)times);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_t signaller_thread;
	pthread_create(&signaller_thread, NULL, signal_all, NULL);
	for (int i = 0; i < 16; i++)
		pthread_join(workers[i], NULL);
	pthread_join(signaller_thread, NULL);
	printf("handled %d\n", __atomic_load_n(&handled_all, __ATOMIC_RELAXED));
}

static char self_path[4096], times_text[32];

/* Ends the process past every exit path the library wraps (exit, _exit):
 * what is in the dump file then is what an earlier dump wrote. */
static void end_without_dump(void)
{
	for (;;)
		syscall(SYS_exit_group, 0);
}

static void exec_self_calls(void)
{
	execl(self_path, "hist_program", "calls", times_text, (char *)NULL);
	_exit(127);
}

static void *thread_exec(void *unused)
{
	(void)unused;
	exec_self_calls();
	return NULL;
}

static void *thread_fork(void *times)
{
	pid_t child = fork();
	if (child == 0) {
		sequence(2 * (long)times);
		exit(0);
	}
	int status;
	waitpid(child, &status, 0);
	printf("child %d\n", (int)child);
	return NULL;
}

static void *thread_exit(void *times)
{
	sequence((long)times);
	fflush(stdout);
	exit(0);
}

/* Whether the file at path is a complete dump with `times` sequences in it
 * ("entry bzero TIMES" and "end" last).  Raw system calls and no string
 * functions: nothing here is counted. */
static char dump_text[1 << 20];

static int dump_has(const char *path, long times)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	long len = 0, n;
	while (len < (long)sizeof dump_text - 1 && (n = read(fd, dump_text + len, sizeof dump_text - 1 - (size_t)len)) > 0)
		len += n;
	close(fd);
	dump_text[len] = '\0';
	char want[64];
	int w = snprintf(want, sizeof want, "\nentry bzero %ld\n", times);
	int found = 0;
	for (long i = 0; i + w <= len && !found; i++) {
		int j = 0;
		while (j < w && dump_text[i + j] == want[j])
			j++;
		found = j == w;
	}
	return found && len >= 5 && dump_text[len - 5] == '\n' && dump_text[len - 4] == 'e' &&
	       dump_text[len - 3] == 'n' && dump_text[len - 2] == 'd' && dump_text[len - 1] == '\n';
}

static void wait_for_dump(const char *path, long times)
{
	struct timespec pause = { 0, 20000000 };
	while (!dump_has(path, times))
		nanosleep(&pause, NULL);
}

static void run_dlopen_loop(const char *lib, long times)
{
	for (long i = 0; i < times; i++) {
		void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
		void (*copy)(void) = h ? (void (*)(void))dlsym(h, "dlcopy") : NULL;
		if (!copy) {
			fprintf(stderr, "cannot load %s: %s\n", lib, dlerror());
			exit(1);
		}
		copy();
		dlclose(h);
	}
	sequence(1);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "calls";
	long times = argc > 2 ? atol(argv[2]) : 1;
	printf("pid %d\n", (int)getpid());
	fflush(stdout);
	if (strcmp(mode, "calls") == 0)
		sequence(times);
	else if (strcmp(mode, "threads") == 0)
		run_threads(times);
	else if (strcmp(mode, "period") == 0)
		run_period(times);
	else if (strcmp(mode, "small") == 0)
		run_random(times, 0, 16);
	else if (strcmp(mode, "kib") == 0)
		run_random(times, 1025, 4096);
	else if (strcmp(mode, "overlap") == 0)
		run_overlap(times);
	else if (strcmp(mode, "signals") == 0)
		run_with_signals(times);
	else if (strcmp(mode, "fork") == 0)
		run_fork(times);
	else if (strcmp(mode, "exec") == 0) {
		if (readlink("/proc/self/exe", self_path, sizeof self_path - 1) < 0)
			return 1;
		snprintf(times_text, sizeof times_text, "%ld", 2 * times);
		sequence(times);
		exec_self_calls();
	} else if (strcmp(mode, "_Exit") == 0) {
		sequence(times);
		_Exit(0);
	} else if (strcmp(mode, "interval") == 0) {
		sequence(times);
		struct timespec wait = { 2, 500000000 };
		nanosleep(&wait, NULL);
		end_without_dump();
	} else if (strcmp(mode, "sigdump") == 0) {
		sequence(times);
		raise(SIGUSR1);
		end_without_dump();
	} else if (strcmp(mode, "thread-signals") == 0) {
		run_thread_signals(times);
	} else if (strcmp(mode, "vfork-exec") == 0 || strcmp(mode, "thread-exec") == 0) {
		if (readlink("/proc/self/exe", self_path, sizeof self_path - 1) < 0)
			return 1;
		snprintf(times_text, sizeof times_text, "%ld", 2 * times);
		sequence(times);
		fflush(stdout);
		if (mode[0] == 'v') {
			pid_t child = vfork();
			if (child == 0)
				exec_self_calls();
			int status;
			waitpid(child, &status, 0);
			printf("child %d\n", (int)child);
			if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
				return 1;
		} else {
			pthread_t t;
			pthread_create(&t, NULL, thread_exec, NULL);
			pthread_join(t, NULL);
			return 1; /* not reached: the exec replaced us */
		}
	} else if (strcmp(mode, "vfork-exit") == 0) {
		sequence(times);
		pid_t child = vfork();
		if (child == 0)
			_exit(0);
		waitpid(child, NULL, 0);
		printf("child %d\n", (int)child);
		sequence(times);
	} else if (strcmp(mode, "thread-fork") == 0) {
		sequence(times);
		fflush(stdout);
		pthread_t t;
		pthread_create(&t, NULL, thread_fork, (void *)times);
		pthread_join(t, NULL);
	} else if (strcmp(mode, "thread-exit") == 0) {
		sequence(times);
		pthread_t t;
		pthread_create(&t, NULL, thread_exit, (void *)times);
		for (;;)
			pause();
	} else if (strncmp(mode, "dumped-", 7) == 0 || strcmp(mode, "dump-storm") == 0) {
		if (argc < 4)
			return 2;
		sequence(times);
		if (strcmp(mode, "dump-storm") == 0)
			raise(SIGUSR1); /* dump-storm: the first dump */
		wait_for_dump(argv[3], times);
		if (strcmp(mode, "dumped-exit") == 0)
			_exit(0);
		if (strcmp(mode, "dumped-kill") == 0)
			kill(getpid(), SIGKILL);
		printf("dumped\n");
		fflush(stdout);
		for (;;)
			raise(SIGUSR1);
	} else if (strcmp(mode, "sigterm") == 0) {
		sequence(times);
		raise(SIGTERM);
		printf("survived\n");
		return 3;
	} else if (strcmp(mode, "term-children") == 0) {
		run_term_children(times);
	} else if (strcmp(mode, "dispositions") == 0) {
		run_dispositions();
	} else if (strcmp(mode, "dlopen-loop") == 0) {
		if (argc < 4)
			return 2;
		run_dlopen_loop(argv[2], atol(argv[3]));
	} else {
		fprintf(stderr, "unknown mode %s\n", mode);
		return 2;
	}
	fflush(stdout);
	return 0;
}
