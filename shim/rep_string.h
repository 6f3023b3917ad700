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

/* rep stosb that leaves rax as it found it: with "a" as an input, GCC
 * keeps a function's return value in another register everywhere and
 * sends every short path through a shared "mov to rax; ret" tail (one more
 * taken jump; D17).  The exchange puts the fill
 * byte in al only around the instruction. */
static inline void rep_stosb_keep_rax(void *d, unsigned char c, size_t n)
{
	unsigned long v = c;
	__asm__ volatile("xchg %%rax, %[v]\n\trep stosb\n\txchg %%rax, %[v]"
	                 : "+D"(d), "+c"(n), [v] "+r"(v)
	                 :
	                 : "memory");
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
