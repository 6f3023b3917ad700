/* A program that spends known shares of its CPU time in memcpy, for the
 * profiler's tests (tests/test_profile.sh).  It measures those shares
 * itself, with each thread's CPU clock around its copy phases, and prints
 *
 *   share 65536 0.301     CPU in 64 KiB copies / the process's CPU time
 *   share 16 0.098        the same for 16-byte copies
 *
 * usage: profile_program MODE SECONDS
 *   mix      one thread: about 30% in 64 KiB copies, 10% in 16-byte ones
 *   threads  the same in 4 threads at once
 *   fork     the same in a forked child (which prints); the parent waits
 *   sigprof  the same with the program's own SIGPROF profiler running;
 *            prints "sigprof N", the signals its handler got
 *   sleeper  the mix in one thread while another sleeps and reads a pipe
 *            fed by a third; exits 1 if any of those calls failed or
 *            returned early
 *   takeover the mix, after installing its own handler for the
 *            profiler's signal (the dump must say so) */

#include <errno.h>
#include <stdint.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BIG 65536
#define SMALL 16
/* One round of the three phases takes 10 to 30 ms of CPU, drawn at
 * random: timer samples come on the kernel's tick, every 4 ms at 250 Hz,
 * and a round of a fixed multiple of that would be sampled at the same
 * points every time. */
#define ROUND_MIN_NS 10e6
#define ROUND_SPREAD_NS 20e6

static double seconds;
static double big_ns, small_ns; /* summed over threads */
static pthread_mutex_t totals_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile unsigned long sink;
/* Through a pointer, so the compiler cannot inline or drop the copies. */
static void *(*volatile copy)(void *, const void *, size_t) = memcpy;

static double clock_ns(clockid_t clock)
{
	struct timespec t;
	clock_gettime(clock, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static double thread_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/* Copies of `size` bytes for `budget` ns of this thread's CPU; returns the ns spent. */
static double copy_for(char *dst, const char *src, size_t size, double budget)
{
	double start = thread_ns(), now = start;
	for (unsigned i = 0; now - start < budget; i++) {
		for (unsigned j = 0; j < (size == BIG ? 16 : 8192); j++)
			copy(dst + (j & 7) * 64, src + ((i + j) & 63), size);
		now = thread_ns();
	}
	return now - start;
}

static void compute_for(double budget)
{
	double start = thread_ns();
	unsigned long x = 1;
	while (thread_ns() - start < budget)
		for (int i = 0; i < 20000; i++)
			x = x * 6364136223846793005ul + 1442695040888963407ul;
	sink = x;
}

static void *mix(void *unused)
{
	(void)unused;
	char *src = malloc(BIG + 64 * 8 + 64), *dst = malloc(BIG + 64 * 8 + 64);
	memset(src, 7, BIG + 64 * 8 + 64);
	double big = 0, small = 0, end = thread_ns() + seconds * 1e9;
	unsigned seed = (unsigned)(uintptr_t)&big;
	while (thread_ns() < end) {
		double round = ROUND_MIN_NS + ROUND_SPREAD_NS * (rand_r(&seed) / (double)RAND_MAX);
		big += copy_for(dst, src, BIG, 0.30 * round);
		small += copy_for(dst, src, SMALL, 0.10 * round);
		compute_for(0.60 * round);
	}
	pthread_mutex_lock(&totals_lock);
	big_ns += big;
	small_ns += small;
	pthread_mutex_unlock(&totals_lock);
	free(src);
	free(dst);
	return NULL;
}

static void print_shares(void)
{
	double all = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	printf("share %d %.4f\nshare %d %.4f\n", BIG, big_ns / all, SMALL, small_ns / all);
}

static volatile sig_atomic_t sigprof_count;
static void on_sigprof(int sig)
{
	(void)sig;
	sigprof_count++;
}

static int own_sigprof(void)
{
	signal(SIGPROF, on_sigprof);
	struct itimerval every = { { 0, 10000 }, { 0, 10000 } };
	setitimer(ITIMER_PROF, &every, NULL);
	mix(NULL);
	print_shares();
	printf("sigprof %d\n", (int)sigprof_count);
	return 0;
}

static volatile int sleeper_failed;
static int pipe_ends[2];

static void *feed_pipe(void *unused)
{
	(void)unused;
	for (int i = 0; i < 50; i++) {
		usleep(10000);
		if (write(pipe_ends[1], "x", 1) != 1)
			sleeper_failed = 1;
	}
	close(pipe_ends[1]);
	return NULL;
}

/* Blocking reads and full-length sleeps while the other thread burns CPU. */
static void *sleep_and_read(void *unused)
{
	(void)unused;
	char c;
	ssize_t got;
	while ((got = read(pipe_ends[0], &c, 1)) == 1) {
		struct timespec nap = { 0, 2000000 }, left;
		double before = clock_ns(CLOCK_MONOTONIC);
		if (nanosleep(&nap, &left) != 0 || clock_ns(CLOCK_MONOTONIC) - before < 2e6)
			sleeper_failed = 1;
	}
	if (got != 0)
		sleeper_failed = 1;
	return NULL;
}

static int sleeper(void)
{
	pthread_t feeder, reader;
	if (pipe(pipe_ends) != 0)
		return 2;
	pthread_create(&feeder, NULL, feed_pipe, NULL);
	pthread_create(&reader, NULL, sleep_and_read, NULL);
	mix(NULL);
	pthread_join(feeder, NULL);
	pthread_join(reader, NULL);
	print_shares();
	printf("sleeper %s\n", sleeper_failed ? "failed" : "ok");
	return sleeper_failed;
}

static int in_threads(void)
{
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, mix, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	print_shares();
	return 0;
}

static int in_child(void)
{
	pid_t child = fork();
	if (child == 0) {
		mix(NULL);
		print_shares();
		exit(0);
	}
	int status;
	waitpid(child, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static void on_our_signal(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	if (argc != 3 || (seconds = atof(argv[2])) <= 0) {
		fprintf(stderr, "usage: profile_program mix|threads|fork|sigprof|sleeper|takeover SECONDS\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	const char *mode = argv[1];
	if (strcmp(mode, "threads") == 0)
		return in_threads();
	if (strcmp(mode, "fork") == 0)
		return in_child();
	if (strcmp(mode, "sigprof") == 0)
		return own_sigprof();
	if (strcmp(mode, "sleeper") == 0)
		return sleeper();
	if (strcmp(mode, "takeover") == 0)
		signal(SIGRTMAX - 3, on_our_signal);
	mix(NULL);
	print_shares();
	return 0;
}
