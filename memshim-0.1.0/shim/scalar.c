/* scalar: no string instructions at all.
 *
 *   0..64 bytes   overlapping head and tail moves (copy_short / set_short),
 *                 every load before every store, so any overlap is safe;
 *   above 64      head word, a 32-byte loop of 8-byte stores to an aligned
 *                 destination, and one overlapping 32-byte tail block.
 *   memmove       runs the same loop backwards when the destination
 *                 overlaps after the source.
 *
 * Built with -mgeneral-regs-only and without loop-to-library-call
 * conversion, so the compiler can neither vectorise these loops nor turn
 * them back into calls to memcpy/memset (tests/check-codegen.sh checks the
 * disassembly has no rep prefix and no call). */
#include "shim/copy_pieces.h"
#include "shim/entry_set.h"

MEMSHIM_BASE_DECLARATIONS(scalar);

void *memshim_memcpy_scalar(void *restrict d, const void *restrict s, size_t n)
{
	copy_forward(d, s, n);
	return d;
}

void *memshim_memmove_scalar(void *d, const void *s, size_t n)
{
	if (overlaps_after_source(d, s, n))
		copy_backward(d, s, n);
	else
		copy_forward(d, s, n);
	return d;
}

void *memshim_memset_scalar(void *d, int c, size_t n)
{
	set_any(d, c, n);
	return d;
}

MEMSHIM_DERIVED_ENTRIES(scalar);
