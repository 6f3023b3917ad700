/* How often a program's small copies would meet the cases a masked 64-byte
 * window pays a microcode assist for (doc/decisions.md, D47, D51), counted
 * in the program itself: preloaded (bench/window-hazard.sh), it takes
 * memcpy, memmove and mempcpy, counts, and copies with rep movsb.  For each
 * call below 64 bytes and each of its two pointers it counts
 *   cross     the window [p, p + 64) reaching the next page while the bytes
 *             [p, p + n) do not: the masked-off bytes alone touch it
 *   absent    of those, the next page not mapped, or not resident by
 *             mincore(2) (for anonymous memory: never touched, or swapped
 *             out; for a file mapping mincore tells the page cache, not this
 *             process's page table, so a page mapped but not yet faulted in
 *             counts as present and the count is a lower bound)
 *   null0     size 0 with the pointer in the first page
 * and at exit writes one line, "calls N small N cross N absent N null0 N",
 * to the file WINDOW_HAZARD_OUT names (appended; standard error without
 * it).  Counts are per pointer, so a call can count twice. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE 4096u
#define WINDOW 64u

static atomic_ulong calls, small, cross, absent, null0, bcross, babsent;

/* Whether the page at `page` is mapped and resident. */
static int page_present(uintptr_t page)
{
	unsigned char v;
	return mincore((void *)page, PAGE, &v) == 0 && (v & 1);
}

static void count_pointer(uintptr_t p, size_t n)
{
	uintptr_t offset = p % PAGE;
	if (n == 0 && p < PAGE)
		atomic_fetch_add_explicit(&null0, 1, memory_order_relaxed);
	if (offset + n < WINDOW && offset > 0) {
		atomic_fetch_add_explicit(&bcross, 1, memory_order_relaxed);
		if (!page_present(p - offset - PAGE))
			atomic_fetch_add_explicit(&babsent, 1, memory_order_relaxed);
	}
	if (offset + WINDOW <= PAGE || offset + n > PAGE)
		return;
	atomic_fetch_add_explicit(&cross, 1, memory_order_relaxed);
	if (!page_present(p - offset + PAGE))
		atomic_fetch_add_explicit(&absent, 1, memory_order_relaxed);
}

static void count(const void *d, const void *s, size_t n)
{
	atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
	if (n >= WINDOW)
		return;
	atomic_fetch_add_explicit(&small, 1, memory_order_relaxed);
	count_pointer((uintptr_t)d, n);
	count_pointer((uintptr_t)s, n);
}

/* The copy itself, forward or backward as memmove needs: no call to the
 * functions this file replaces. */
static void move(void *d, const void *s, size_t n)
{
	if ((uintptr_t)d - (uintptr_t)s >= n) {
		__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
		return;
	}
	unsigned char *dp = d;
	const unsigned char *sp = s;
	while (n--)
		dp[n] = sp[n];
}

void *memcpy(void *restrict d, const void *restrict s, size_t n)
{
	count(d, s, n);
	move(d, s, n);
	return d;
}

void *memmove(void *d, const void *s, size_t n)
{
	count(d, s, n);
	move(d, s, n);
	return d;
}

void *mempcpy(void *restrict d, const void *restrict s, size_t n)
{
	count(d, s, n);
	move(d, s, n);
	return (char *)d + n;
}

/* One line at exit, written with write(2): stdio may already be gone. */
__attribute__((destructor)) static void report(void)
{
	char line[160];
	int len = snprintf(line, sizeof line, "calls %lu small %lu cross %lu absent %lu null0 %lu bcross %lu babsent %lu\n",
			   atomic_load(&calls), atomic_load(&small), atomic_load(&cross),
			   atomic_load(&absent), atomic_load(&null0), atomic_load(&bcross), atomic_load(&babsent));
	const char *path = getenv("WINDOW_HAZARD_OUT");
	int fd = path ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : 2;
	if (fd < 0 || len <= 0)
		return;
	if (write(fd, line, (size_t)len) < 0)
		return;
	if (path)
		close(fd);
}
