/* A program whose copies take known times, for the tests of timed calls
 * (tests/test_timing.sh, MEMSHIM_TIMING).
 *
 * usage: timing_program MODE [ARG]
 *   known SECONDS  copies of four sizes, each alone in its function's size
 *                  class, in batches interleaved round by round for about
 *                  SECONDS, and at least KNOWN_LEAST_CALLS of each; each batch timed with CLOCK_MONOTONIC.  Prints
 *                  per function and size two means of ns per call and the
 *                  batches each rests on: the quiet one, of the batches at
 *                  most 1.5 times the fastest fifth's (a batch lasts several
 *                  calls, a slice of another task far more); and the busy
 *                  one, of every batch the thread was not switched out in
 *                  (getrusage), which holds what a busy machine's other
 *                  core costs the calls (memory, caches) as the timed calls
 *                  do.  On a quiet machine the two are close:
 *                    known memcpy 131072 2402.2 412 2431.0 498
 *   calls N        N memcpy calls of 1000 bytes, nothing else of that size
 *   periodic N     N memcpy calls alternating 24 and 2000 bytes: a period
 *                  that divides any even N of MEMSHIM_TIMING
 *   threads N      N memcpy calls of 300 bytes in each of 4 threads
 *   serial N       the same in each of 600 threads, one after another: those
 *                  past the library's 512 slots share one
 *   forbid N       N memcpy calls of 64 bytes, then prctl(PR_SET_TSC,
 *                  PR_TSC_SIGSEGV) and N more
 *   fork N         a forked child makes N memcpy calls of 700 bytes; the
 *                  parent waits for it
 *
 * The sizes of `known` are large enough (128 KiB and more, microseconds)
 * that a timed call, which runs alone, takes about what a call in a batch
 * takes.  Smaller ones differ by up to tens of ns, more than 10% around the
 * size of the L1 cache (D36). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BATCH_NS 300000.0 /* a batch lasts about this long: several per scheduler slice */
#define PREEMPTED 1.5     /* a batch this much slower than the fastest fifth had another task in it */
#define MAX_BATCHES 100000
#define ALIGN 4096

/* Through pointers, so that the compiler neither inlines nor drops the calls. */
static void *(*volatile copy)(void *, const void *, size_t) = memcpy;
static void *(*volatile move)(void *, const void *, size_t) = memmove;
static void *(*volatile set)(void *, int, size_t) = memset;

struct phase {
	const char *function;
	size_t size;
	unsigned calls;   /* per batch */
	unsigned batches;
	double *ns;       /* each batch's ns per call */
	double busy_sum;  /* the sum of those of the batches not switched out in */
	unsigned busy;    /* and how many */
};

static char *src, *dst;

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return 1e9 * (double)t.tv_sec + (double)t.tv_nsec;
}

/* The destination sits 1 KiB past a page boundary from the source: no 4 KiB aliasing. */
static void one_call(const struct phase *p)
{
	if (p->function[3] == 'c')
		copy(dst + 1024, src, p->size);
	else if (p->function[3] == 'm')
		move(dst + 1024, src, p->size);
	else
		set(dst + 1024, 0x5a, p->size);
}

static double batch_ns(const struct phase *p, unsigned calls)
{
	double start = now_ns();
	for (unsigned i = 0; i < calls; i++)
		one_call(p);
	return (now_ns() - start) / calls;
}

/* The thread's context switches so far, voluntary or not. */
static long switches(void)
{
	struct rusage u;
	return getrusage(RUSAGE_THREAD, &u) == 0 ? u.ru_nvcsw + u.ru_nivcsw : -1;
}

/* One batch of p, kept in both means' terms. */
static void batch(struct phase *p)
{
	long before = switches();
	double ns = batch_ns(p, p->calls);
	p->ns[p->batches++] = ns;
	if (before >= 0 && switches() == before) {
		p->busy_sum += ns;
		p->busy++;
	}
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The calls each size makes at the least, however slow the machine and
 * however short its batches: tests/test_timing.sh asks for 100 timed calls
 * of each at one call in 16 timed, and a loaded machine made 1244 calls of
 * one size in 2 s. */
#define KNOWN_LEAST_CALLS 3200

/* The fewest calls any of the n phases made. */
static unsigned long fewest_calls(const struct phase *phases, unsigned n)
{
	unsigned long fewest = (unsigned long)phases[0].batches * phases[0].calls;
	for (unsigned k = 1; k < n; k++) {
		unsigned long made = (unsigned long)phases[k].batches * phases[k].calls;
		fewest = made < fewest ? made : fewest;
	}
	return fewest;
}

static int known(double seconds)
{
	static struct phase phases[] = {
		{ "memcpy", 131072, 0, 0, NULL },
		{ "memmove", 262144, 0, 0, NULL },
		{ "memset", 262144, 0, 0, NULL },
		{ "memcpy", 1048576, 0, 0, NULL },
	};
	const unsigned count = sizeof phases / sizeof phases[0];
	for (unsigned k = 0; k < count; k++) {
		struct phase *p = &phases[k];
		batch_ns(p, 8); /* warm the caches */
		double guess = batch_ns(p, 8);
		p->calls = guess > 0 && BATCH_NS / guess > 1 ? (unsigned)(BATCH_NS / guess) : 1;
		p->ns = malloc(MAX_BATCHES * sizeof *p->ns);
		if (!p->ns)
			return 1;
	}
	double end = now_ns() + 1e9 * seconds;
	while ((now_ns() < end || fewest_calls(phases, count) < KNOWN_LEAST_CALLS) && phases[0].batches < MAX_BATCHES)
		for (unsigned k = 0; k < count; k++)
			batch(&phases[k]);
	for (unsigned k = 0; k < count; k++) {
		struct phase *p = &phases[k];
		qsort(p->ns, p->batches, sizeof *p->ns, by_value);
		double fast = p->ns[p->batches / 5], sum = 0;
		unsigned kept = 0;
		for (; kept < p->batches && p->ns[kept] <= PREEMPTED * fast; kept++)
			sum += p->ns[kept];
		printf("known %s %zu %.2f %u %.2f %u\n", p->function, p->size, sum / kept, kept,
		       p->busy ? p->busy_sum / p->busy : sum / kept, p->busy);
	}
	return 0;
}

static void calls(size_t size, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		copy(dst, src, size);
}

static void *thread_calls(void *n)
{
	calls(300, *(unsigned *)n);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	src = aligned_alloc(ALIGN, 1 << 20);
	dst = aligned_alloc(ALIGN, (1 << 20) + ALIGN);
	if (!src || !dst)
		return 1;
	memset(src, 1, 1 << 20);
	memset(dst, 2, (1 << 20) + ALIGN);
	unsigned n = (unsigned)strtoul(argv[2], NULL, 10);
	if (strcmp(argv[1], "known") == 0)
		return known(strtod(argv[2], NULL));
	if (strcmp(argv[1], "calls") == 0)
		calls(1000, n);
	else if (strcmp(argv[1], "periodic") == 0)
		for (unsigned i = 0; i < n; i++)
			copy(dst, src, i % 2 ? 2000 : 24);
	else if (strcmp(argv[1], "threads") == 0) {
		pthread_t t[4];
		for (int i = 0; i < 4; i++)
			pthread_create(&t[i], NULL, thread_calls, &n);
		for (int i = 0; i < 4; i++)
			pthread_join(t[i], NULL);
	} else if (strcmp(argv[1], "serial") == 0) {
		for (int i = 0; i < 600; i++) {
			pthread_t t;
			if (pthread_create(&t, NULL, thread_calls, &n) != 0 || pthread_join(t, NULL) != 0)
				return 1;
		}
	} else if (strcmp(argv[1], "fork") == 0) {
		pid_t child = fork();
		if (child == 0) {
			calls(700, n);
			return 0;
		}
		int status;
		if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status))
			return 1;
	} else if (strcmp(argv[1], "forbid") == 0) {
		calls(64, n);
		prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0);
		calls(64, n);
	} else
		return 2;
	return 0;
}
