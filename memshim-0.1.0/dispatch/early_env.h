/* The process's environment and auxiliary vector, read from the initial
 * stack rather than through the C library.
 *
 * The resolvers of a program linked with -z now run while the dynamic linker
 * relocates it, before the C library has set up `environ`: getenv() returns
 * NULL there.  The kernel's initial stack (argc, argv, envp, auxv) is already
 * complete, and the dynamic linker records where it is in __libc_stack_end.
 * Reading it there gives every resolver, early or late, the same answer. */
#ifndef MEMSHIM_EARLY_ENV_H
#define MEMSHIM_EARLY_ENV_H

#include <stdbool.h>

/* The value of NAME in the environment the process started with, or NULL. */
const char *early_getenv(const char *name);

/* The environment's "NAME=value" strings the process started with, NULL-terminated. */
char *const *early_environ(void);

/* True when the process runs in secure mode (AT_SECURE: set-user-ID,
 * set-group-ID, file capabilities): then variables that name files are ignored. */
bool early_secure_mode(void);

/* The program's name (basename of argv[0]), for %e in dump paths; "" if none. */
const char *early_program_name(void);

/* Compares the NUL-terminated strings a and b without the C library. */
bool same_string(const char *a, const char *b);

#endif
