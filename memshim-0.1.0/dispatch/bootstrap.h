/* Resolvers that run before this library is relocated.
 *
 * The dynamic linker relocates objects dependencies-first, but a preloaded
 * library has no dependents: a library such as liblzma can be relocated
 * before us, and its references to memset then call our resolver while
 * our own relocations are still undone (glibc prints "Relink ... for IFUNC
 * symbol").  Until then every pointer in our data is wrong and every
 * external symbol unreachable.  bootstrap_self() makes the resolvers work
 * anyway: it applies our own R_X86_64_RELATIVE relocations early (with
 * RELA they are idempotent: the dynamic linker later writes the same
 * values again) and finds the two dynamic-linker symbols the resolvers
 * need through the auxiliary vector read from /proc/self/auxv. */
#ifndef MEMSHIM_BOOTSTRAP_H
#define MEMSHIM_BOOTSTRAP_H

#include <link.h>
#include <stdbool.h>

/* True once the dynamic linker has relocated this library. */
bool self_relocated(void);

/* The dynamic linker's __libc_stack_end and _r_debug, reachable whether or
 * not we are relocated yet; NULL if they cannot be found. */
void *bootstrap_stack_end(void);
struct r_debug *bootstrap_r_debug(void);

#endif
