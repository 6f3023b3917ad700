/* The x86 string instructions, as inline assembly: the compiler has no
 * other way to say "rep movsb".  The direction flag is clear on entry to
 * every function (System V ABI), so these copy low addresses first. */
#ifndef MEMSHIM_REP_STRING_H
#define MEMSHIM_REP_STRING_H

#include <stddef.h>

static inline void rep_movsb(void *d, const void *s, size_t n)
{
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

static inline void rep_stosb(void *d, unsigned char c, size_t n)
{
	__asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
}

static inline void rep_movsq(void *d, const void *s, size_t words)
{
	__asm__ volatile("rep movsq" : "+D"(d), "+S"(s), "+c"(words) : : "memory");
}

static inline void rep_stosq(void *d, unsigned long long v, size_t words)
{
	__asm__ volatile("rep stosq" : "+D"(d), "+c"(words) : "a"(v) : "memory");
}

#endif
