/* Where the recording's own code lies (preload/recording_code.h): the
 * linker's bounds of the sections RECORDING_CODE names. */
#include "preload/recording_code.h"

#include "shim/base_function.h"

/* The linker's bounds of the sections RECORDING_CODE names (hidden: not exported). */
#define SECTION_BOUNDS(part)                                                                          \
	extern const char __start_memshim_recording_##part[] __attribute__((visibility("hidden"))); \
	extern const char __stop_memshim_recording_##part[] __attribute__((visibility("hidden")));
SECTION_BOUNDS(memcpy)
SECTION_BOUNDS(memmove)
SECTION_BOUNDS(memset)
SECTION_BOUNDS(shared)
#define IN_SECTION(pc, part) \
	((pc) >= (uintptr_t)__start_memshim_recording_##part && (pc) < (uintptr_t)__stop_memshim_recording_##part)

int record_code_function(uintptr_t pc)
{
	return IN_SECTION(pc, memcpy)    ? FN_MEMCPY
	       : IN_SECTION(pc, memmove) ? FN_MEMMOVE
	       : IN_SECTION(pc, memset)  ? FN_MEMSET
	       : IN_SECTION(pc, shared)  ? FN_COUNT
	                                 : -1;
}
