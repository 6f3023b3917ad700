/* Dump before exec: exec replaces the process image, and its counts with
 * it.  The exec functions are exported stubs too (dispatch/export_stub.h):
 * without recording they jump straight to the C library's; with
 * recording, to a wrapper that dumps and then calls the C library's.
 * (Exec calls made inside the C library, by system() or posix_spawn(), do
 * not come through here; those start a new process anyway.) */
#include "dispatch/config.h"
#include "dispatch/export_stub.h"
#include "dispatch/next_symbol.h"
#include "preload/hist_dump.h"

#include <stdarg.h>
#include <unistd.h>

static bool recording(void) { return config_get()->hist_path[0] != '\0'; }

#define EXEC_WRAPPER(name, params, args)                                                           \
	static __typeof__(name) *next_##name;                                                          \
	static int dump_then_##name params                                                             \
	{                                                                                              \
		hist_dump_now("exec");                                                                     \
		return next_##name args;                                                                   \
	}                                                                                              \
	static __typeof__(name) *resolve_##name(void)                                                  \
	{                                                                                              \
		next_##name = next_symbol(#name);                                                          \
		return recording() && next_##name ? dump_then_##name : next_##name;                        \
	}                                                                                              \
	MEMSHIM_EXPORT_STUB(name, resolve_##name)

EXEC_WRAPPER(execve, (const char *path, char *const argv[], char *const envp[]), (path, argv, envp));
EXEC_WRAPPER(execv, (const char *path, char *const argv[]), (path, argv));
EXEC_WRAPPER(execvp, (const char *file, char *const argv[]), (file, argv));
EXEC_WRAPPER(execvpe, (const char *file, char *const argv[], char *const envp[]), (file, argv, envp));
EXEC_WRAPPER(fexecve, (int fd, char *const argv[], char *const envp[]), (fd, argv, envp));
EXEC_WRAPPER(execveat, (int dirfd, const char *path, char *const argv[], char *const envp[], int flags),
             (dirfd, path, argv, envp, flags));

/* execl, execlp, execle: the variable argument list becomes an argv array
 * on the stack, then the v-form above runs (and dumps). */
#define COLLECT_ARGS(first, ap, argv)                                                              \
	size_t count = 1;                                                                              \
	va_list counting;                                                                              \
	va_copy(counting, ap);                                                                         \
	while (va_arg(counting, char *))                                                               \
		count++;                                                                                   \
	va_end(counting);                                                                              \
	char *argv[count + 1];                                                                         \
	argv[0] = (char *)(first);                                                                     \
	for (size_t i = 1; i <= count; i++)                                                            \
		argv[i] = va_arg(ap, char *)

static int dump_then_execl(const char *path, const char *arg, ...)
{
	va_list ap;
	va_start(ap, arg);
	COLLECT_ARGS(arg, ap, argv);
	va_end(ap);
	return dump_then_execv(path, argv);
}

static int dump_then_execlp(const char *file, const char *arg, ...)
{
	va_list ap;
	va_start(ap, arg);
	COLLECT_ARGS(arg, ap, argv);
	va_end(ap);
	return dump_then_execvp(file, argv);
}

static int dump_then_execle(const char *path, const char *arg, ...)
{
	va_list ap;
	va_start(ap, arg);
	COLLECT_ARGS(arg, ap, argv);
	char *const *envp = va_arg(ap, char *const *);
	va_end(ap);
	return dump_then_execve(path, argv, envp);
}

#define EXEC_LIST_EXPORT(name, vform)                                                              \
	static __typeof__(name) *resolve_##name(void)                                                  \
	{                                                                                              \
		resolve_##vform(); /* finds the C library's v-form for the wrapper */                     \
		return recording() && next_##vform ? dump_then_##name : next_symbol(#name);                \
	}                                                                                              \
	MEMSHIM_EXPORT_STUB(name, resolve_##name)

EXEC_LIST_EXPORT(execl, execv);
EXEC_LIST_EXPORT(execlp, execvp);
EXEC_LIST_EXPORT(execle, execve);
