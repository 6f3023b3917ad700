/* rep movsb / rep stosb variants: the kernel's choices on CPUs with ERMS.
 *
 * fsrm   rep movsb (memset: rep stosb) at every size: what the kernel does
 *        on CPUs with Fast Short REP MOV, where the microcode start-up cost
 *        of a short rep movsb is small.
 * erms   below a threshold the scalar pieces (shim/copy_pieces.h), at and
 *        above it rep movsb: the choice for ERMS CPUs without FSRM in
 *        "x86/lib: Use REP MOVSB for large memcpy() on ERMS CPUs without
 *        FSRM" (LKML, 2026), where rep movsb from 32 bytes slowed short
 *        copies and from 2048 bytes won (D13).
 *        The thresholds are MEMSHIM_MOVSB_THRESHOLD and
 *        MEMSHIM_STOSB_THRESHOLD (those of the *_erms variants too), set
 *        once by the resolvers before any call can reach these functions.
 *
 * memmove whose destination overlaps after its source: rep movsb would
 * need the direction flag set (std; rep movsb; cld), which runs the slow
 * byte-at-a-time microcode on most CPUs, so both variants copy such calls
 * with the scalar backward loop instead. */
#include "shim/thresholds.h"
#include "shim/copy_pieces.h"
#include "shim/entry_set.h"
#include "shim/rep_string.h"

MEMSHIM_BASE_DECLARATIONS(fsrm);
MEMSHIM_BASE_DECLARATIONS(erms);

void *memshim_memcpy_fsrm(void *restrict d, const void *restrict s, size_t n)
{
	rep_movsb(d, s, n);
	return d;
}

void *memshim_memmove_fsrm(void *d, const void *s, size_t n)
{
	if (overlaps_after_source(d, s, n))
		copy_backward(d, s, n);
	else
		rep_movsb(d, s, n);
	return d;
}

void *memshim_memset_fsrm(void *d, int c, size_t n)
{
	rep_stosb(d, (unsigned char)c, n);
	return d;
}

MEMSHIM_DERIVED_ENTRIES(fsrm);

void *memshim_memcpy_erms(void *restrict d, const void *restrict s, size_t n)
{
	if (n < memshim_thresholds.movsb)
		copy_forward(d, s, n);
	else
		rep_movsb(d, s, n);
	return d;
}

void *memshim_memmove_erms(void *d, const void *s, size_t n)
{
	if (overlaps_after_source(d, s, n))
		copy_backward(d, s, n);
	else if (n < memshim_thresholds.movsb)
		copy_forward(d, s, n);
	else
		rep_movsb(d, s, n);
	return d;
}

void *memshim_memset_erms(void *d, int c, size_t n)
{
	if (n < memshim_thresholds.stosb)
		set_any(d, c, n);
	else
		rep_stosb(d, (unsigned char)c, n);
	return d;
}

MEMSHIM_DERIVED_ENTRIES(erms);
