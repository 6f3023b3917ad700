/* memshim's public interface, for programs that call a variant directly
 * (compile and link with `pkg-config --cflags --libs memshim`).
 *
 * Every variant V is exported as memshim_<function>_V, with the signature of
 * the C library function of that name; the _chk forms are the fortify checks
 * (__memcpy_chk and the rest): they abort when n exceeds dst_size.  A
 * variant the CPU cannot run (memshim_variant_usable) must not be called:
 * it would end in SIGILL.  The glibc variant is the C library's own
 * function. */
#ifndef MEMSHIM_H
#define MEMSHIM_H

#include <stddef.h>

/* `restrict` is C only; GCC and Clang take __restrict in C and C++ alike. */
#define MEMSHIM_RESTRICT __restrict

#ifdef __cplusplus
extern "C" {
#endif

/* The name of variant number i (0, 1, ...), or NULL past the last one. */
const char *memshim_variant_name(unsigned i);

/* Nonzero when variant number i can run on this CPU, OS and C library. */
int memshim_variant_usable(unsigned i);

/* fsrm */
void *memshim_memcpy_fsrm(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_mempcpy_fsrm(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_memcpy_chk_fsrm(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_mempcpy_chk_fsrm(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_memmove_fsrm(void *dst, const void *src, size_t n);
void *memshim_memmove_chk_fsrm(void *dst, const void *src, size_t n, size_t dst_size);
void memshim_bcopy_fsrm(const void *src, void *dst, size_t n);
void *memshim_memset_fsrm(void *dst, int c, size_t n);
void *memshim_memset_chk_fsrm(void *dst, int c, size_t n, size_t dst_size);
void memshim_bzero_fsrm(void *dst, size_t n);
void memshim_explicit_bzero_fsrm(void *dst, size_t n);
void memshim_explicit_bzero_chk_fsrm(void *dst, size_t n, size_t dst_size);

/* erms */
void *memshim_memcpy_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_mempcpy_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_memcpy_chk_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_mempcpy_chk_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_memmove_erms(void *dst, const void *src, size_t n);
void *memshim_memmove_chk_erms(void *dst, const void *src, size_t n, size_t dst_size);
void memshim_bcopy_erms(const void *src, void *dst, size_t n);
void *memshim_memset_erms(void *dst, int c, size_t n);
void *memshim_memset_chk_erms(void *dst, int c, size_t n, size_t dst_size);
void memshim_bzero_erms(void *dst, size_t n);
void memshim_explicit_bzero_erms(void *dst, size_t n);
void memshim_explicit_bzero_chk_erms(void *dst, size_t n, size_t dst_size);

/* scalar */
void *memshim_memcpy_scalar(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_mempcpy_scalar(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_memcpy_chk_scalar(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_mempcpy_chk_scalar(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_memmove_scalar(void *dst, const void *src, size_t n);
void *memshim_memmove_chk_scalar(void *dst, const void *src, size_t n, size_t dst_size);
void memshim_bcopy_scalar(const void *src, void *dst, size_t n);
void *memshim_memset_scalar(void *dst, int c, size_t n);
void *memshim_memset_chk_scalar(void *dst, int c, size_t n, size_t dst_size);
void memshim_bzero_scalar(void *dst, size_t n);
void memshim_explicit_bzero_scalar(void *dst, size_t n);
void memshim_explicit_bzero_chk_scalar(void *dst, size_t n, size_t dst_size);

/* movsq */
void *memshim_memcpy_movsq(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_mempcpy_movsq(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_memcpy_chk_movsq(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_mempcpy_chk_movsq(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_memmove_movsq(void *dst, const void *src, size_t n);
void *memshim_memmove_chk_movsq(void *dst, const void *src, size_t n, size_t dst_size);
void memshim_bcopy_movsq(const void *src, void *dst, size_t n);
void *memshim_memset_movsq(void *dst, int c, size_t n);
void *memshim_memset_chk_movsq(void *dst, int c, size_t n, size_t dst_size);
void memshim_bzero_movsq(void *dst, size_t n);
void memshim_explicit_bzero_movsq(void *dst, size_t n);
void memshim_explicit_bzero_chk_movsq(void *dst, size_t n, size_t dst_size);

/* glibc */
void *memshim_memcpy_glibc(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_mempcpy_glibc(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_memcpy_chk_glibc(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_mempcpy_chk_glibc(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_memmove_glibc(void *dst, const void *src, size_t n);
void *memshim_memmove_chk_glibc(void *dst, const void *src, size_t n, size_t dst_size);
void memshim_bcopy_glibc(const void *src, void *dst, size_t n);
void *memshim_memset_glibc(void *dst, int c, size_t n);
void *memshim_memset_chk_glibc(void *dst, int c, size_t n, size_t dst_size);
void memshim_bzero_glibc(void *dst, size_t n);
void memshim_explicit_bzero_glibc(void *dst, size_t n);
void memshim_explicit_bzero_chk_glibc(void *dst, size_t n, size_t dst_size);

/* sse2 */
void *memshim_memcpy_sse2(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_mempcpy_sse2(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_memcpy_chk_sse2(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_mempcpy_chk_sse2(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_memmove_sse2(void *dst, const void *src, size_t n);
void *memshim_memmove_chk_sse2(void *dst, const void *src, size_t n, size_t dst_size);
void memshim_bcopy_sse2(const void *src, void *dst, size_t n);
void *memshim_memset_sse2(void *dst, int c, size_t n);
void *memshim_memset_chk_sse2(void *dst, int c, size_t n, size_t dst_size);
void memshim_bzero_sse2(void *dst, size_t n);
void memshim_explicit_bzero_sse2(void *dst, size_t n);
void memshim_explicit_bzero_chk_sse2(void *dst, size_t n, size_t dst_size);

/* avx2 */
void *memshim_memcpy_avx2(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_mempcpy_avx2(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_memcpy_chk_avx2(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_mempcpy_chk_avx2(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_memmove_avx2(void *dst, const void *src, size_t n);
void *memshim_memmove_chk_avx2(void *dst, const void *src, size_t n, size_t dst_size);
void memshim_bcopy_avx2(const void *src, void *dst, size_t n);
void *memshim_memset_avx2(void *dst, int c, size_t n);
void *memshim_memset_chk_avx2(void *dst, int c, size_t n, size_t dst_size);
void memshim_bzero_avx2(void *dst, size_t n);
void memshim_explicit_bzero_avx2(void *dst, size_t n);
void memshim_explicit_bzero_chk_avx2(void *dst, size_t n, size_t dst_size);

/* avx512 */
void *memshim_memcpy_avx512(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_mempcpy_avx512(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_memcpy_chk_avx512(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_mempcpy_chk_avx512(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_memmove_avx512(void *dst, const void *src, size_t n);
void *memshim_memmove_chk_avx512(void *dst, const void *src, size_t n, size_t dst_size);
void memshim_bcopy_avx512(const void *src, void *dst, size_t n);
void *memshim_memset_avx512(void *dst, int c, size_t n);
void *memshim_memset_chk_avx512(void *dst, int c, size_t n, size_t dst_size);
void memshim_bzero_avx512(void *dst, size_t n);
void memshim_explicit_bzero_avx512(void *dst, size_t n);
void memshim_explicit_bzero_chk_avx512(void *dst, size_t n, size_t dst_size);

/* sse2_erms */
void *memshim_memcpy_sse2_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_mempcpy_sse2_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_memcpy_chk_sse2_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_mempcpy_chk_sse2_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_memmove_sse2_erms(void *dst, const void *src, size_t n);
void *memshim_memmove_chk_sse2_erms(void *dst, const void *src, size_t n, size_t dst_size);
void memshim_bcopy_sse2_erms(const void *src, void *dst, size_t n);
void *memshim_memset_sse2_erms(void *dst, int c, size_t n);
void *memshim_memset_chk_sse2_erms(void *dst, int c, size_t n, size_t dst_size);
void memshim_bzero_sse2_erms(void *dst, size_t n);
void memshim_explicit_bzero_sse2_erms(void *dst, size_t n);
void memshim_explicit_bzero_chk_sse2_erms(void *dst, size_t n, size_t dst_size);

/* avx2_erms */
void *memshim_memcpy_avx2_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_mempcpy_avx2_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_memcpy_chk_avx2_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_mempcpy_chk_avx2_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_memmove_avx2_erms(void *dst, const void *src, size_t n);
void *memshim_memmove_chk_avx2_erms(void *dst, const void *src, size_t n, size_t dst_size);
void memshim_bcopy_avx2_erms(const void *src, void *dst, size_t n);
void *memshim_memset_avx2_erms(void *dst, int c, size_t n);
void *memshim_memset_chk_avx2_erms(void *dst, int c, size_t n, size_t dst_size);
void memshim_bzero_avx2_erms(void *dst, size_t n);
void memshim_explicit_bzero_avx2_erms(void *dst, size_t n);
void memshim_explicit_bzero_chk_avx2_erms(void *dst, size_t n, size_t dst_size);

/* avx512_erms */
void *memshim_memcpy_avx512_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_mempcpy_avx512_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_memcpy_chk_avx512_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_mempcpy_chk_avx512_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_memmove_avx512_erms(void *dst, const void *src, size_t n);
void *memshim_memmove_chk_avx512_erms(void *dst, const void *src, size_t n, size_t dst_size);
void memshim_bcopy_avx512_erms(const void *src, void *dst, size_t n);
void *memshim_memset_avx512_erms(void *dst, int c, size_t n);
void *memshim_memset_chk_avx512_erms(void *dst, int c, size_t n, size_t dst_size);
void memshim_bzero_avx512_erms(void *dst, size_t n);
void memshim_explicit_bzero_avx512_erms(void *dst, size_t n);
void memshim_explicit_bzero_chk_avx512_erms(void *dst, size_t n, size_t dst_size);

/* evex */
void *memshim_memcpy_evex(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_mempcpy_evex(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_memcpy_chk_evex(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_mempcpy_chk_evex(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_memmove_evex(void *dst, const void *src, size_t n);
void *memshim_memmove_chk_evex(void *dst, const void *src, size_t n, size_t dst_size);
void memshim_bcopy_evex(const void *src, void *dst, size_t n);
void *memshim_memset_evex(void *dst, int c, size_t n);
void *memshim_memset_chk_evex(void *dst, int c, size_t n, size_t dst_size);
void memshim_bzero_evex(void *dst, size_t n);
void memshim_explicit_bzero_evex(void *dst, size_t n);
void memshim_explicit_bzero_chk_evex(void *dst, size_t n, size_t dst_size);

/* evex_erms */
void *memshim_memcpy_evex_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_mempcpy_evex_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_memcpy_chk_evex_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_mempcpy_chk_evex_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_memmove_evex_erms(void *dst, const void *src, size_t n);
void *memshim_memmove_chk_evex_erms(void *dst, const void *src, size_t n, size_t dst_size);
void memshim_bcopy_evex_erms(const void *src, void *dst, size_t n);
void *memshim_memset_evex_erms(void *dst, int c, size_t n);
void *memshim_memset_chk_evex_erms(void *dst, int c, size_t n, size_t dst_size);
void memshim_bzero_evex_erms(void *dst, size_t n);
void memshim_explicit_bzero_evex_erms(void *dst, size_t n);
void memshim_explicit_bzero_chk_evex_erms(void *dst, size_t n, size_t dst_size);

/* avx2_xmm */
void *memshim_memcpy_avx2_xmm(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_mempcpy_avx2_xmm(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_memcpy_chk_avx2_xmm(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_mempcpy_chk_avx2_xmm(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_memmove_avx2_xmm(void *dst, const void *src, size_t n);
void *memshim_memmove_chk_avx2_xmm(void *dst, const void *src, size_t n, size_t dst_size);
void memshim_bcopy_avx2_xmm(const void *src, void *dst, size_t n);
void *memshim_memset_avx2_xmm(void *dst, int c, size_t n);
void *memshim_memset_chk_avx2_xmm(void *dst, int c, size_t n, size_t dst_size);
void memshim_bzero_avx2_xmm(void *dst, size_t n);
void memshim_explicit_bzero_avx2_xmm(void *dst, size_t n);
void memshim_explicit_bzero_chk_avx2_xmm(void *dst, size_t n, size_t dst_size);

/* avx2_xmm_erms */
void *memshim_memcpy_avx2_xmm_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_mempcpy_avx2_xmm_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n);
void *memshim_memcpy_chk_avx2_xmm_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_mempcpy_chk_avx2_xmm_erms(void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size);
void *memshim_memmove_avx2_xmm_erms(void *dst, const void *src, size_t n);
void *memshim_memmove_chk_avx2_xmm_erms(void *dst, const void *src, size_t n, size_t dst_size);
void memshim_bcopy_avx2_xmm_erms(const void *src, void *dst, size_t n);
void *memshim_memset_avx2_xmm_erms(void *dst, int c, size_t n);
void *memshim_memset_chk_avx2_xmm_erms(void *dst, int c, size_t n, size_t dst_size);
void memshim_bzero_avx2_xmm_erms(void *dst, size_t n);
void memshim_explicit_bzero_avx2_xmm_erms(void *dst, size_t n);
void memshim_explicit_bzero_chk_avx2_xmm_erms(void *dst, size_t n, size_t dst_size);

#ifdef __cplusplus
}
#endif

#endif
