/* The three base functions; every exported name follows one of them
 * (shim/memshim.h lists which).  At the bottom of the tree: the variants,
 * the dispatch table and the dump format all name them. */
#ifndef MEMSHIM_BASE_FUNCTION_H
#define MEMSHIM_BASE_FUNCTION_H

enum base_function { FN_MEMCPY, FN_MEMMOVE, FN_MEMSET, FN_COUNT };

extern const char *const base_function_names[FN_COUNT]; /* "memcpy", ... */

#endif
