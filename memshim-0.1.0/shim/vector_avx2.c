/* avx2 and avx2_erms: the vector variants with 32-byte registers.  Built
 * with -mavx2 and only dispatched to when the CPU has AVX2 and the OS saves
 * the YMM state.  The algorithm is in shim/vector_pieces.h. */
#include <immintrin.h>

#include "shim/copy_pieces.h"

#define VEC_SIZE 32
typedef __m256i vec;

static inline vec vec_load(const byte *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline void vec_store(byte *p, vec v) { _mm256_storeu_si256((__m256i *)p, v); }
static inline void vec_store_aligned(byte *p, vec v) { _mm256_store_si256((__m256i *)p, v); }
static inline void vec_stream(byte *p, vec v) { _mm256_stream_si256((__m256i *)p, v); }
static inline vec vec_broadcast(int c) { return _mm256_set1_epi8((char)c); }

#include "shim/vector_pieces.h"

MEMSHIM_VECTOR_VARIANT(avx2, NO_REP_BAND);
MEMSHIM_VECTOR_VARIANT(avx2_erms, WITH_REP_BAND);
