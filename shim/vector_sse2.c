/* sse2 and sse2_erms: the vector variants with 16-byte registers, which
 * every x86-64 CPU has: the ladder in shim/ladder_sse2.S, the rare long
 * paths from shim/vector_pieces.h. */
#include <immintrin.h>

#include "shim/copy_pieces.h"

#define VEC_SIZE 16
typedef __m128i vec;

static inline vec vec_load(const byte *p) { return _mm_loadu_si128((const __m128i *)p); }
static inline void vec_store(byte *p, vec v) { _mm_storeu_si128((__m128i *)p, v); }
static inline void vec_store_aligned(byte *p, vec v) { _mm_store_si128((__m128i *)p, v); }
static inline void vec_stream(byte *p, vec v) { _mm_stream_si128((__m128i *)p, v); }
static inline vec vec_broadcast(int c) { return _mm_set1_epi8((char)c); }

#include "shim/vector_pieces.h"

MEMSHIM_VECTOR_VARIANT(sse2);
MEMSHIM_VECTOR_VARIANT(sse2_erms);
