/* Whether LD_PRELOAD can reach a program, read from its ELF headers, for
 * the subcommands that preload the library into one (run). */
#ifndef MEMSHIM_CLI_REACH_H
#define MEMSHIM_CLI_REACH_H

#include <stddef.h>

enum cli_reach {
	REACH_OK,     /* a dynamic 64-bit program, or no ELF file at all (a script) */
	REACH_STATIC, /* no dynamic linker runs for it */
	REACH_GO,     /* Go without cgo: copies with its own runtime, not the C library */
	REACH_32BIT,  /* the dynamic linker skips a 64-bit library */
	REACH_ASAN,   /* AddressSanitizer's runtime library must be first in LD_PRELOAD */
	REACH_SECURE, /* set-user-ID, set-group-ID or with file capabilities: it runs
	                 in secure-execution mode, where ld.so drops LD_PRELOAD */
};

/* How the program file at `path` takes LD_PRELOAD; unless REACH_OK, `why`
 * gets one line saying so (and, for REACH_ASAN, how to run it), starting
 * with `name`, the program as the user wrote it.  A file that cannot be
 * read counts as REACH_OK: running it will say what is wrong. */
enum cli_reach cli_preload_reachable(const char *path, const char *name, char *why, size_t size);

/* Before cli_preload_library for the program `name` (as execvp would find
 * it): drops from LD_PRELOAD each object named by a path that cannot be
 * opened, with one line each (else every process's loader says so);
 * prints "memshim COMMAND: <why>" when LD_PRELOAD cannot reach it.
 * An ASan program with LD_PRELOAD unset gets its runtime put first in
 * LD_PRELOAD instead, as ASan requires; with LD_PRELOAD set and not
 * beginning with the runtime, it is told how to run it. */
void cli_prepare_preload(const char *command, const char *name);

#endif
