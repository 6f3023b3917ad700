/* The stub probe (tools/calibrate/stub_probe.h).  Its stubs are the library's
 * own stub macro, so that the instructions timed are the ones a program's
 * call goes through; only the slots are set here rather than by the
 * library's resolvers. */
#include "tools/calibrate/stub_probe.h"

#include "dispatch/export_stub.h"

copy_fn stub_probe_memcpy, stub_probe_memmove;
set_fn stub_probe_memset;

/* The stubs' last slot, for sizes past the second bound: that bound stays
 * SIZE_MAX, so no call gets there. */
static void *never_reached(void)
{
	__builtin_trap();
}

/* used: the stubs name them only in the ifunc attribute's string, which
 * clang does not count as a use. */
__attribute__((used)) static copy_fn *resolve_copy(void) { return (copy_fn *)(void *)never_reached; }
__attribute__((used)) static set_fn *resolve_set(void) { return (set_fn *)(void *)never_reached; }

MEMSHIM_EXPORT_BANDED_STUB(stub_probe_memcpy, "rdx", resolve_copy);
MEMSHIM_EXPORT_BANDED_STUB(stub_probe_memmove, "rdx", resolve_copy);
MEMSHIM_EXPORT_BANDED_STUB(stub_probe_memset, "rdx", resolve_set);

struct measure_variant stub_probe_over(const struct measure_variant *target)
{
	memshim_bands_stub_probe_memcpy.function[0] = (void *)target->copy[FN_MEMCPY];
	memshim_bands_stub_probe_memmove.function[0] = (void *)target->copy[FN_MEMMOVE];
	memshim_bands_stub_probe_memset.function[0] = (void *)target->set;
	struct measure_variant probe = { .name = STUB_PROBE_NAME, .set = stub_probe_memset };
	probe.copy[FN_MEMCPY] = stub_probe_memcpy;
	probe.copy[FN_MEMMOVE] = stub_probe_memmove;
	return probe;
}
