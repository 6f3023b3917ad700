/* A program with a known sequence of calls, for the recording tests.
 *
 *   hist_program MODE [N]
 *     calls N       the sequence N times, then exit
 *     threads N     16 threads run the sequence N times each
 *     signals N     the sequence N times while another thread keeps
 *                   signalling this one, whose handler copies 24 bytes;
 *                   prints how many times the handler ran
 *     fork N        the sequence N times in the parent and 2N in a child
 *     exec N        the sequence N times, then exec /bin/true
 *     interval N    the sequence N times, sleep 2.5 s, then _exit (no exit dump)
 *     sigdump N     the sequence N times, raise SIGUSR1, then _exit
 *
 * One sequence: memcpy 100 and 4096 bytes, mempcpy 17, memmove 200 bytes
 * overlapping with the destination after and before the source and 50
 * bytes not overlapping, memset 1000 bytes of 0 and 33 of 7, bzero 5.
 * It prints "pid P" first. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char src[8192], dst[8192], overlap[512];

static void sequence(long times)
{
	for (long i = 0; i < times; i++) {
		memcpy(dst, src, 100);
		memcpy(dst, src, 4096);
		mempcpy(dst, src, 17);
		memmove(overlap + 8, overlap, 200);
		memmove(overlap, overlap + 8, 200);
		memmove(dst + 4096, src, 50);
		memset(dst, 0, 1000);
		memset(dst, 7, 33);
		bzero(dst, 5);
	}
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
	static char a[64], b[64];
	(void)sig;
	memcpy(a, b, 24);
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
	else if (strcmp(mode, "signals") == 0)
		run_with_signals(times);
	else if (strcmp(mode, "fork") == 0)
		run_fork(times);
	else if (strcmp(mode, "exec") == 0) {
		sequence(times);
		execl("/bin/true", "true", (char *)NULL);
		return 1;
	} else if (strcmp(mode, "interval") == 0) {
		sequence(times);
		struct timespec wait = { 2, 500000000 };
		nanosleep(&wait, NULL);
		_exit(0);
	} else if (strcmp(mode, "sigdump") == 0) {
		sequence(times);
		raise(SIGUSR1);
		_exit(0);
	} else {
		fprintf(stderr, "unknown mode %s\n", mode);
		return 2;
	}
	fflush(stdout);
	return 0;
}
