/* What a masked move's window costs where its bytes cost nothing: the
 * calls below, through the PLT as a preloaded program makes them, each in a
 * loop of its own, timed in BATCHES batches, the fastest kept (a preemption
 * only ever adds time):
 *   copy0_null   memmove(buf, NULL, 0): no byte, a source on no page
 *   copy0_cold   memmove(d, s, 0), d and s on lines flushed before the loop
 *   set0_null    memset(NULL, 0, 0)
 *   copy0_forked, set0_forked
 *                memmove(d, s, 0) and memset(d, 0, 0), d on a page that
 *                nothing has written since a fork: write-protected, for
 *                copy-on-write, until the first store that writes a byte
 *   copy4_cold_at_0, copy4_cold_at_56
 *                a 4-byte memmove between flushed lines, source and
 *                destination at that offset in their line: at 56 the
 *                4 bytes lie in one line, a 16-byte window from them in two
 *   copy4_end_guard, copy4_end_untouched
 *                a 4-byte memmove from the last 4 bytes of a page to the
 *                last 4 of another, each page followed by one that has no
 *                access (PROT_NONE), or by one mapped and never touched: a
 *                window from the bytes reaches that page
 *   copy4_start_guard, copy4_start_untouched
 *                the same from the first 4 bytes of a page to the first 4
 *                of another, each page after such a page: a window ending
 *                at the bytes reaches it
 *   copy8_in_use a chain: 8 bytes written, copied, and the copy read back
 *                to make the next 8 bytes, as a program builds what it
 *                copies and uses the copy: a masked window neither takes
 *                its bytes from the store just made nor gives them to the
 *                load that follows
 * A masked move that fetches every line and page its window touches, its
 * bytes masked off or not, pays for each of these; a ladder that branches
 * on the size touches none (0 bytes) or one line (4 bytes at 56).
 * memmove's masked copy is memcpy's code; `masked_window memcpy` calls
 * memcpy instead, for a library whose two differ (AOCL-LibMem's).
 * Prints "NAME NS_PER_CALL" lines.  Run by bench/masked-window.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <emmintrin.h>

#define BATCHES 15
#define CALLS 4096	 /* per cold batch: one line pair each, flushed before */
#define STRIDE 8192	 /* between two cold calls' lines: no prefetcher's next line */
#define HOT_CALLS 100000 /* per batch of the calls that touch no line */
/* Where in its page a call's bytes lie unless the case says otherwise: the
 * middle, away from the pages' first and last 64 bytes, where the masked
 * copies take another window (shim/vector_ladder.S). */
#define MID_PAGE 1024

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* Through volatile pointers, so that the compiler calls the functions as
 * written, the null pointer and the size 0 included. */
static void *(*volatile move)(void *, const void *, size_t) = memmove;
static void *(*volatile set)(void *, int, size_t) = memset;
static char *volatile null_pointer;
static volatile size_t zero;

static double best_of(double (*batch)(char *, size_t), char *arena, size_t offset)
{
	double best = 1e30;
	for (int b = 0; b < BATCHES; b++) {
		double t = batch(arena, offset);
		best = t < best ? t : best;
	}
	return best;
}

static double copy0_null(char *arena, size_t offset)
{
	(void)offset;
	double start = now_ns();
	for (int i = 0; i < HOT_CALLS; i++)
		move(arena, null_pointer, zero);
	return (now_ns() - start) / HOT_CALLS;
}

static double set0_null(char *arena, size_t offset)
{
	(void)arena, (void)offset;
	double start = now_ns();
	for (int i = 0; i < HOT_CALLS; i++)
		set(null_pointer, 0, zero);
	return (now_ns() - start) / HOT_CALLS;
}

/* A child forked and gone: every page of the arena is write-protected
 * again, until its next write. */
static void fork_and_wait(void)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static double copy0_forked(char *arena, size_t offset)
{
	fork_and_wait();
	double start = now_ns();
	for (int i = 0; i < HOT_CALLS; i++)
		move(arena + offset, arena + STRIDE, zero);
	return (now_ns() - start) / HOT_CALLS;
}

static double set0_forked(char *arena, size_t offset)
{
	fork_and_wait();
	double start = now_ns();
	for (int i = 0; i < HOT_CALLS; i++)
		set(arena + offset, 0, zero);
	return (now_ns() - start) / HOT_CALLS;
}

/* CALLS copies of `size` bytes, each between two lines just flushed (the
 * line at `offset` and the next one, source and destination apart). */
static double cold_copies(char *arena, size_t offset, size_t size)
{
	arena += MID_PAGE;
	for (size_t i = 0; i < CALLS; i++)
		for (size_t line = 0; line < 128; line += 64) {
			_mm_clflush(arena + i * STRIDE + line);
			_mm_clflush(arena + i * STRIDE + STRIDE / 2 + line);
		}
	_mm_mfence();
	double start = now_ns();
	for (size_t i = 0; i < CALLS; i++)
		move(arena + i * STRIDE + STRIDE / 2 + offset, arena + i * STRIDE + offset, size);
	return (now_ns() - start) / CALLS;
}

static double copy0_cold(char *arena, size_t offset) { return cold_copies(arena, offset, zero); }

static double copy4_cold(char *arena, size_t offset) { return cold_copies(arena, offset, 4 + zero); }

/* HOT_CALLS copies of 4 bytes between two pages with data, each beside a
 * page with PROTECTION (its first access never made): from the last 4
 * bytes of one to the last 4 of the other, each followed by such a page,
 * or from the first to the first, each after one. */
static double copy4_beside(int protection, int at_start)
{
	char *map = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *data = at_start ? map + 4096 : map, *other = at_start ? map : map + 4096;
	if (map == MAP_FAILED || mprotect(other, 4096, protection) || mprotect(other + 2 * 4096, 4096, protection)) {
		perror("masked_window: mmap");
		exit(1);
	}
	memset(data, 1, 4096);
	memset(data + 2 * 4096, 2, 4096);
	size_t at = at_start ? 0 : 4096 - 4;
	double best = 1e30;
	for (int b = 0; b < BATCHES; b++) {
		double start = now_ns();
		for (int i = 0; i < HOT_CALLS; i++)
			move(data + 2 * 4096 + at, data + at - zero, 4 + zero);
		double t = (now_ns() - start) / HOT_CALLS;
		best = t < best ? t : best;
	}
	munmap(map, 4 * 4096);
	return best;
}

static double copy8_in_use(char *arena, size_t offset)
{
	uint64_t x = 1;
	char *src = arena + MID_PAGE + offset + 8, *dst = arena + MID_PAGE + offset + STRIDE / 2 + 200;
	double start = now_ns();
	for (int i = 0; i < HOT_CALLS; i++) {
		memcpy(src, &x, 8);
		move(dst, src, 8 + zero);
		memcpy(&x, dst, 8);
		x++;
	}
	double t = (now_ns() - start) / HOT_CALLS;
	return x ? t : 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "memcpy") == 0)
		move = memcpy;
	else if (argc > 1) {
		fprintf(stderr, "usage: masked_window [memcpy]\n");
		return 2;
	}
	char *arena = aligned_alloc(4096, (size_t)CALLS * STRIDE);
	if (!arena) {
		fprintf(stderr, "masked_window: out of memory\n");
		return 1;
	}
	memset(arena, 1, (size_t)CALLS * STRIDE); /* every page touched */
	printf("copy0_null %.2f\n", best_of(copy0_null, arena, 0));
	printf("copy0_cold %.2f\n", best_of(copy0_cold, arena, 0));
	printf("set0_null %.2f\n", best_of(set0_null, arena, 0));
	printf("copy0_forked %.2f\n", best_of(copy0_forked, arena, 0));
	printf("set0_forked %.2f\n", best_of(set0_forked, arena, 0));
	printf("copy4_cold_at_0 %.2f\n", best_of(copy4_cold, arena, 0));
	printf("copy4_cold_at_56 %.2f\n", best_of(copy4_cold, arena, 56));
	printf("copy8_in_use %.2f\n", best_of(copy8_in_use, arena, 0));
	printf("copy4_end_guard %.2f\n", copy4_beside(PROT_NONE, 0));
	printf("copy4_end_untouched %.2f\n", copy4_beside(PROT_READ | PROT_WRITE, 0));
	printf("copy4_start_guard %.2f\n", copy4_beside(PROT_NONE, 1));
	printf("copy4_start_untouched %.2f\n", copy4_beside(PROT_READ | PROT_WRITE, 1));
	free(arena);
	return 0;
}
