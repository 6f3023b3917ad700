/* Dump before _exit and _Exit: they end the process without running
 * destructors, so the exit dump in preload/hist_dump.c would never come (dash
 * leaves this way, and so does many a forked child).  Without recording
 * both names jump straight to the C library's _exit; with recording, to a
 * wrapper that dumps, then ends the process as _exit does.  A vfork child
 * that calls _exit writes nothing: hist_dump.c knows the counts are not its
 * own.  (The C library's own exit() reaches _exit internally, after the
 * destructors, without coming through here.) */
#include "dispatch/config.h"
#include "dispatch/export_stub.h"
#include "dispatch/next_symbol.h"
#include "dispatch/raw_syscall.h"
#include "preload/hist_dump.h"

#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

/* What _exit does: end every thread of the process. */
static __attribute__((noreturn)) void exit_group_now(int status)
{
	for (;;)
		raw_syscall3(SYS_exit_group, status, 0, 0);
}

static __attribute__((noreturn)) void dump_then_exit(int status)
{
	hist_dump_last("exit");
	exit_group_now(status);
}

static void (*exit_function(const char *name))(int)
{
	if (config_get()->hist_path[0])
		return dump_then_exit;
	void (*found)(int) = (void (*)(int))next_symbol(name);
	return found ? found : exit_group_now;
}

static __typeof__(_exit) *resolve__exit(void) { return exit_function("_exit"); }
static __typeof__(_Exit) *resolve__Exit(void) { return exit_function("_Exit"); }

MEMSHIM_EXPORT_STUB(_exit, resolve__exit);
MEMSHIM_EXPORT_STUB(_Exit, resolve__Exit);
