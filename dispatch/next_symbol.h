/* The next definition of a function after this library, found without the
 * C library's help. */
#ifndef MEMSHIM_NEXT_SYMBOL_H
#define MEMSHIM_NEXT_SYMBOL_H


/* The address of the default-version definition of NAME in the first object
 * loaded after this library (or, if this library was not preloaded, in any
 * other object), with indirect functions resolved; NULL if there is none.
 *
 * This is dlsym(RTLD_NEXT, name), but it can run inside a resolver while the
 * dynamic linker is still relocating the program, where dlsym must not be
 * called: it reads the dynamic linker's list of loaded objects (_r_debug)
 * and their GNU hash tables directly. */
void *next_symbol(const char *name);

#endif
