/* The 32-byte vector primitives shim/vector_pieces.h needs, shared by the
 * avx2 file (VEX encoding, -mavx2) and the evex file (EVEX encoding, the
 * same intrinsics compiled with AVX-512VL). */
#ifndef MEMSHIM_VECTOR_256_H
#define MEMSHIM_VECTOR_256_H

#include <immintrin.h>

#include "shim/copy_pieces.h"

#define VEC_SIZE 32
typedef __m256i vec;

static inline vec vec_load(const byte *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline void vec_store(byte *p, vec v) { _mm256_storeu_si256((__m256i *)p, v); }
static inline void vec_store_aligned(byte *p, vec v) { _mm256_store_si256((__m256i *)p, v); }
static inline void vec_stream(byte *p, vec v) { _mm256_stream_si256((__m256i *)p, v); }
static inline vec vec_broadcast(int c) { return _mm256_set1_epi8((char)c); }

#endif
