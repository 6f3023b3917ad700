/* memshim's public interface, for programs that call a variant directly
 * (link with `pkg-config --libs memshim`).  Every variant V exports
 *
 *   memshim_memcpy_V  memshim_mempcpy_V  memshim_memmove_V  memshim_memset_V
 *   memshim_memcpy_chk_V  memshim_mempcpy_chk_V  memshim_memmove_chk_V
 *   memshim_memset_chk_V  memshim_bcopy_V  memshim_bzero_V
 *   memshim_explicit_bzero_V  memshim_explicit_bzero_chk_V
 *
 * with the signature of the C function of the same name. */
#ifndef MEMSHIM_H
#define MEMSHIM_H

#ifdef __cplusplus
extern "C" {
#endif

/* The name of variant number i (0, 1, ...), or NULL past the last one. */
const char *memshim_variant_name(unsigned i);

/* Nonzero when variant number i can run on this CPU, OS and C library. */
int memshim_variant_usable(unsigned i);

#ifdef __cplusplus
}
#endif

#endif
