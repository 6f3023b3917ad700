/* Test buffers fenced by PROT_NONE pages: a copy that reads or writes one
 * byte outside its buffer crashes the test instead of passing unnoticed. */
#ifndef MEMSHIM_TESTS_GUARDED_H
#define MEMSHIM_TESTS_GUARDED_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

struct guarded {
	unsigned char *begin, *end; /* usable bytes; the pages before and after fault */
};

static inline struct guarded guarded_alloc(size_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t usable = (bytes + page - 1) / page * page;
	unsigned char *base = mmap(NULL, usable + 2 * page, PROT_READ | PROT_WRITE,
	                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED) {
		perror("mmap");
		exit(99);
	}
	mprotect(base, page, PROT_NONE);
	mprotect(base + page + usable, page, PROT_NONE);
	return (struct guarded){ base + page, base + page + usable };
}

#endif
