/* System calls without the C library, for code that runs before this
 * library, or the C library, is ready to be called. */
#ifndef MEMSHIM_RAW_SYSCALL_H
#define MEMSHIM_RAW_SYSCALL_H

static inline long raw_syscall3(long number, long a, long b, long c)
{
	long ret;
	__asm__ volatile("syscall"
	                 : "=a"(ret)
	                 : "0"(number), "D"(a), "S"(b), "d"(c)
	                 : "rcx", "r11", "memory");
	return ret;
}

#endif
