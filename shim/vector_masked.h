/* Copies and fills below 64 bytes with byte-masked loads and stores
 * (AVX-512BW and VL, and BMI2 for the mask), for the width files that may
 * use them: no test of the size at all.  Random sizes below 64 bytes are
 * most calls (BENCHMARKS.md, section 13), and the size tests of the
 * halves-of-a-vector scheme mispredict on them.  Masked-off bytes are never
 * accessed, so nothing past either buffer can fault (tests/test_variants
 * runs every size up to 129 bytes flush against guard pages).  glibc's
 * memset-vec-unaligned-erms.S uses a masked store below one vector the
 * same way.  Included by a width file before shim/vector_pieces.h. */
#ifndef MEMSHIM_VECTOR_MASKED_H
#define MEMSHIM_VECTOR_MASKED_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "shim/copy_pieces.h"

/* Sizes below this take the masked pieces (shim/vector_pieces.h). */
#define MASKED_BELOW 64

/* The first n bytes, n < 64: two instructions with BMI2, as in glibc. */
static inline __mmask64 first_bytes(size_t n) { return _bzhi_u64(~0ull, n); }

/* Whether the bytes from p to p + last reach into the next 4 KiB page
 * (last < 4096: adding it carries into bit 12 exactly then).  A masked
 * access whose window does is several times slower even with every byte it
 * touches mapped, far slower when the masked-off part is unmapped (fault
 * suppression), so such calls take the general-purpose pieces, as glibc's
 * masked memset does (BENCHMARKS.md, section 13). */
static inline uintptr_t page_crossing(const byte *p, size_t last)
{
	return (((uintptr_t)p + last) ^ (uintptr_t)p) & 4096;
}

/* 0..63 bytes; near a page end, the general-purpose-register pieces.
 * Two 32-byte halves rather than one 64-byte access: up to 32 bytes the
 * upper half, wholly masked off, goes to the lower half's address, so it
 * touches no line the copy does not need, which is faster with the source
 * out of the caches than one access, four quarters or a branch on the size
 * (BENCHMARKS.md, section 13). */
static inline void copy_masked(byte *d, const byte *s, size_t n)
{
	size_t upper = (n - 1) & 32; /* the upper half's offset: 0 when wholly masked off */
	if (__builtin_expect(page_crossing(d, upper + 31) | page_crossing(s, upper + 31), 0)) {
		copy_short(d, s, n);
		return;
	}
	__mmask64 m = first_bytes(n);
	__m256i lo = _mm256_maskz_loadu_epi8((__mmask32)m, s);
	__m256i hi = _mm256_maskz_loadu_epi8((__mmask32)(m >> 32), s + upper);
	_mm256_mask_storeu_epi8(d, (__mmask32)m, lo);
	_mm256_mask_storeu_epi8(d + upper, (__mmask32)(m >> 32), hi);
}

static inline void set_masked(byte *d, int c, size_t n)
{
	if (__builtin_expect(page_crossing(d, 63), 0)) {
		set_short(d, broadcast_byte(c), n);
		return;
	}
	_mm512_mask_storeu_epi8(d, first_bytes(n), _mm512_set1_epi8((char)c));
}

#endif
