/* A program may forbid itself the time-stamp counter after start-up
 * (prctl PR_SET_TSC, PR_TSC_SIGSEGV: sandboxes, record-and-replay tools);
 * its next timed call would then die of SIGSEGV.  With MEMSHIM_TIMING,
 * prctl is an exported stub (dispatch/export_stub.h) that stops timing
 * before passing such a call on; without it, the stub jumps straight to
 * the C library's prctl.  (The setting is the calling thread's, and those
 * it starts; the dump asks the kernel before it reads the counter.) */
#include "dispatch/config.h"
#include "dispatch/export_stub.h"
#include "dispatch/next_symbol.h"
#include "preload/record.h"

#include <stdarg.h>
#include <sys/prctl.h>

static __typeof__(prctl) *next_prctl;

/* prctl takes up to four arguments after the option, as the C library's
 * own wrapper reads them. */
static int stop_timing_then_prctl(int option, ...)
{
	va_list ap;
	va_start(ap, option);
	unsigned long a2 = va_arg(ap, unsigned long), a3 = va_arg(ap, unsigned long);
	unsigned long a4 = va_arg(ap, unsigned long), a5 = va_arg(ap, unsigned long);
	va_end(ap);
	if (option == PR_SET_TSC && a2 == PR_TSC_SIGSEGV)
		record_stop_timing();
	return next_prctl(option, a2, a3, a4, a5);
}

static __typeof__(prctl) *resolve_prctl(void)
{
	next_prctl = next_symbol("prctl");
	return config_get()->timing_every && next_prctl ? stop_timing_then_prctl : next_prctl;
}

MEMSHIM_EXPORT_STUB(prctl, resolve_prctl);
