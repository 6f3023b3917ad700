/* movsq: rep movsq / rep stosq for long copies, the kernel's choice on CPUs
 * without ERMS (commit ca96b162bfd2, "x86: bring back rep movsq for user
 * access on CPUs without ERMS", and the thread "x86: add back the alignment
 * of the destination to 8 bytes in copy_user_generic()", LKML, 2025).
 *
 *   0..64 bytes   the scalar head/tail pieces;
 *   above 64      the first, possibly unaligned, word by itself, rep movsq
 *                 from the next 8-byte boundary of the destination (an
 *                 unaligned one costs much of the throughput on AMD
 *                 without ERMS: D13), and the last
 *                 word as one overlapping store instead of a byte loop
 *                 for the remainder.
 *
 * The head and tail words are loaded before rep movsq and stored after it,
 * so the same code is a correct memmove when the destination lies before
 * the source.  When it overlaps after the source, rep movsq would need the
 * direction flag set (slow microcode), so memmove takes the scalar
 * backward loop instead. */
#include "shim/copy_pieces.h"
#include "shim/entry_set.h"
#include "shim/rep_string.h"

MEMSHIM_BASE_DECLARATIONS(movsq);

static void movsq_forward(byte *d, const byte *s, size_t n)
{
	uint64_t head = load8(s), tail = load8(s + n - 8);
	size_t skip = bytes_to_next_word(d);
	rep_movsq(d + skip, s + skip, (n - skip) / 8);
	store8(d + n - 8, tail);
	store8(d, head);
}

static void stosq_long(byte *d, uint64_t v, size_t n)
{
	size_t skip = bytes_to_next_word(d);
	store8(d, v);
	rep_stosq(d + skip, v, (n - skip) / 8);
	store8(d + n - 8, v);
}

void *memshim_memcpy_movsq(void *restrict d, const void *restrict s, size_t n)
{
	if (n <= LONG_COPY_MIN)
		copy_short(d, s, n);
	else
		movsq_forward(d, s, n);
	return d;
}

void *memshim_memmove_movsq(void *d, const void *s, size_t n)
{
	if (n <= LONG_COPY_MIN)
		copy_short(d, s, n);
	else if (overlaps_after_source(d, s, n))
		copy_long_backward(d, s, n);
	else
		movsq_forward(d, s, n);
	return d;
}

void *memshim_memset_movsq(void *d, int c, size_t n)
{
	uint64_t v = broadcast_byte(c);
	if (n <= LONG_COPY_MIN)
		set_short(d, v, n);
	else
		stosq_long(d, v, n);
	return d;
}

MEMSHIM_DERIVED_ENTRIES(movsq);
