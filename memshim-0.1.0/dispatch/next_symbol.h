/* The next definition of a function after this library, found without the
 * C library's help. */
#ifndef MEMSHIM_NEXT_SYMBOL_H
#define MEMSHIM_NEXT_SYMBOL_H

#include <stdint.h>

/* The address of the default-version definition of NAME in the first object
 * loaded after this library (or, if this library was not preloaded, in any
 * other object), with indirect functions resolved; NULL if there is none.
 *
 * This is dlsym(RTLD_NEXT, name), but it can run inside a resolver while the
 * dynamic linker is still relocating the program, where dlsym must not be
 * called: it reads the dynamic linker's list of loaded objects (_r_debug)
 * and their GNU hash tables directly. */
void *next_symbol(const char *name);

/* The address of the default-version definition of NAME (a function or a
 * variable, indirect functions not resolved) in the object loaded at
 * `base`, found through its ELF header; NULL if there is none. */
void *symbol_in_loaded_object(uintptr_t base, const char *name);

/* The run-time address a DT_* entry of an object loaded at `base` names.
 * The dynamic linker adds the load base to most of them in place when it
 * maps an object; an object whose dynamic section is read-only (the vDSO)
 * keeps them relative.  Either way this gives the run-time address. */
const void *dynamic_address(uintptr_t base, uintptr_t value);

#endif
