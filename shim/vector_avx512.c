/* avx512, avx512_mask, their _erms twins and avx512_mask64_erms: the
 * vector variants with 64-byte registers.
 * Built with -mavx512f -mavx512bw -mavx512vl and only dispatched to when the
 * CPU has all three and the OS saves the ZMM state.  The ladder is in
 * shim/ladder_avx512.S, the rare long paths from shim/vector_pieces.h.
 *
 * Makefile.am also reserves xmm0..15 (-ffixed-xmm*), so the compiler only
 * uses zmm16..31, which only EVEX instructions can name.  Their upper bits
 * never slow down legacy SSE code, so no path needs a vzeroupper before
 * returning (glibc's EVEX string functions use zmm16..31 for the same
 * reason; D18). */
#include <immintrin.h>

#include "shim/copy_pieces.h"

#define VEC_SIZE 64
typedef __m512i vec;

static inline vec vec_load(const byte *p) { return _mm512_loadu_si512(p); }
static inline void vec_store(byte *p, vec v) { _mm512_storeu_si512(p, v); }
static inline void vec_store_aligned(byte *p, vec v) { _mm512_store_si512(p, v); }
static inline void vec_stream(byte *p, vec v) { _mm512_stream_si512((__m512i *)p, v); }
static inline vec vec_broadcast(int c) { return _mm512_set1_epi8((char)c); }

#include "shim/vector_pieces.h"

MEMSHIM_VECTOR_VARIANT(avx512);
MEMSHIM_VECTOR_VARIANT(avx512_erms);
MEMSHIM_VECTOR_VARIANT(avx512_mask);
MEMSHIM_VECTOR_VARIANT(avx512_mask_erms);
MEMSHIM_VECTOR_VARIANT(avx512_mask64_erms);
