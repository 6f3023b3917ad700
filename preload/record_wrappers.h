/* One set of recording wrappers, included twice by preload/record.c.
 *
 * A wrapper finds the call's size bucket, records the call and then jumps
 * to the variant (a tail call: nothing is added after the count; see
 * copy_then in preload/record.c for why most go through it).  With PROFILED 1 it first marks the
 * call in progress for the profiler (preload/profile.h): two stores, which
 * only a process started with MEMSHIM_PROFILE pays.  The time inside then
 * counts what the call costs the program as it runs, the recording's
 * nanosecond or so included.
 * WRAPPED(name) names this set's functions. */

#if PROFILED
#define MARK(fn, bucket) profile_mark(fn, bucket, __builtin_dwarf_cfa(), __builtin_return_address(0))
#else
#define MARK(fn, bucket) ((void)0)
#endif

static void *WRAPPED(memcpy)(void *restrict d, const void *restrict s, size_t n)
{
	unsigned b = hist_bucket(n);
	MARK(FN_MEMCPY, b);
	return copy_then(target.memcpy, FN_MEMCPY, E_MEMCPY, d, s, n, b);
}

static void *WRAPPED(mempcpy)(void *restrict d, const void *restrict s, size_t n)
{
	unsigned b = hist_bucket(n);
	MARK(FN_MEMCPY, b);
	return copy_then(target.mempcpy, FN_MEMCPY, E_MEMPCPY, d, s, n, b);
}

static void *WRAPPED(memcpy_chk)(void *restrict d, const void *restrict s, size_t n, size_t room)
{
	unsigned b = hist_bucket(n);
	MARK(FN_MEMCPY, b);
	return copy_chk_then(target.memcpy_chk, FN_MEMCPY, E_MEMCPY_CHK, d, s, n, room, b);
}

static void *WRAPPED(mempcpy_chk)(void *restrict d, const void *restrict s, size_t n, size_t room)
{
	unsigned b = hist_bucket(n);
	MARK(FN_MEMCPY, b);
	return copy_chk_then(target.mempcpy_chk, FN_MEMCPY, E_MEMPCPY_CHK, d, s, n, room, b);
}

static void *WRAPPED(memmove)(void *d, const void *s, size_t n)
{
	unsigned b = hist_bucket(n);
	MARK(FN_MEMMOVE, b);
	return copy_then(target.memmove, FN_MEMMOVE, E_MEMMOVE, d, s, n, b);
}

static void *WRAPPED(memmove_chk)(void *d, const void *s, size_t n, size_t room)
{
	unsigned b = hist_bucket(n);
	MARK(FN_MEMMOVE, b);
	return copy_chk_then(target.memmove_chk, FN_MEMMOVE, E_MEMMOVE_CHK, d, s, n, room, b);
}

static void WRAPPED(bcopy)(const void *s, void *d, size_t n)
{
	unsigned b = hist_bucket(n);
	MARK(FN_MEMMOVE, b);
	record_copy(FN_MEMMOVE, E_BCOPY, d, s, n, b);
	target.bcopy(s, d, n);
}

static void *WRAPPED(memset)(void *d, int c, size_t n)
{
	unsigned b = hist_bucket(n);
	MARK(FN_MEMSET, b);
	return set_then(target.memset, E_MEMSET, d, c, n, b);
}

static void *WRAPPED(memset_chk)(void *d, int c, size_t n, size_t room)
{
	unsigned b = hist_bucket(n);
	MARK(FN_MEMSET, b);
	return set_chk_then(target.memset_chk, E_MEMSET_CHK, d, c, n, room, b);
}

static void WRAPPED(bzero)(void *d, size_t n)
{
	unsigned b = hist_bucket(n);
	MARK(FN_MEMSET, b);
	record_set(E_BZERO, d, 0, n, b);
	target.bzero(d, n);
}

static void WRAPPED(explicit_bzero)(void *d, size_t n)
{
	unsigned b = hist_bucket(n);
	MARK(FN_MEMSET, b);
	record_set(E_EXPLICIT_BZERO, d, 0, n, b);
	target.explicit_bzero(d, n);
}

static void WRAPPED(explicit_bzero_chk)(void *d, size_t n, size_t room)
{
	unsigned b = hist_bucket(n);
	MARK(FN_MEMSET, b);
	record_set(E_EXPLICIT_BZERO_CHK, d, 0, n, b);
	target.explicit_bzero_chk(d, n, room);
}

#define WRAPPER_OF(v, entry, ...) .entry = WRAPPED(entry),
static const struct entry_set WRAPPED(entries) = { MEMSHIM_ENTRY_POINTS(WRAPPER_OF, ) };
#undef WRAPPER_OF

#undef MARK
