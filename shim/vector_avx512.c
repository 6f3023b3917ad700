/* avx512 and avx512_erms: the vector variants with 64-byte registers.
 * Built with -mavx512f -mavx512bw -mavx512vl and only dispatched to when the
 * CPU has all three and the OS saves the ZMM state.  The algorithm is in
 * shim/vector_pieces.h. */
#include <immintrin.h>

#include "shim/copy_pieces.h"

#define VEC_SIZE 64
typedef __m512i vec;

static inline vec vec_load(const byte *p) { return _mm512_loadu_si512(p); }
static inline void vec_store(byte *p, vec v) { _mm512_storeu_si512(p, v); }
static inline void vec_store_aligned(byte *p, vec v) { _mm512_store_si512(p, v); }
static inline void vec_stream(byte *p, vec v) { _mm512_stream_si512((__m512i *)p, v); }
static inline vec vec_broadcast(int c) { return _mm512_set1_epi8((char)c); }

/* Below 64 bytes: byte-masked accesses (AVX-512BW) to the first n bytes.
 * The value lives in zmm16, which only EVEX instructions can name: its
 * upper bits never make legacy SSE code slow, so this path, the most
 * frequent one, needs no vzeroupper (glibc's EVEX string functions use
 * zmm16..31 everywhere for the same reason).  The empty asm holds the value
 * in the register variable, which GCC only promises for asm operands. */
#define VEC_MASKED_BELOW_VEC 1
#define IN_ZMM16(v) __asm__("" : "+v"(v))
static inline __mmask64 first_bytes(size_t n) { return ((uint64_t)1 << n) - 1; }

static inline void copy_first(byte *d, const byte *s, size_t n)
{
	register vec v __asm__("zmm16") = _mm512_maskz_loadu_epi8(first_bytes(n), s);
	IN_ZMM16(v);
	_mm512_mask_storeu_epi8(d, first_bytes(n), v);
}

static inline void set_first(byte *d, int c, size_t n)
{
	register vec v __asm__("zmm16") = _mm512_set1_epi8((char)c);
	IN_ZMM16(v);
	_mm512_mask_storeu_epi8(d, first_bytes(n), v);
}

#include "shim/vector_pieces.h"

MEMSHIM_VECTOR_VARIANT(avx512, NO_REP_BAND);
MEMSHIM_VECTOR_VARIANT(avx512_erms, WITH_REP_BAND);
