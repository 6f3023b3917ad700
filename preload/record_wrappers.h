/* One set of recording wrappers, included four times by preload/record.c.
 *
 * A wrapper finds the call's size bucket (as its counters' offset, `at`),
 * records the call and then jumps to the variant (a tail call: nothing is
 * added after the count; see copy_then in preload/record.c for why most go
 * through it).  With PROFILED 1 it first marks the call in progress for
 * the profiler (preload/profile.h): two stores, which only a process started
 * with MEMSHIM_PROFILE pays.  With TIMED true it counts down to the
 * thread's next timed call (MEMSHIM_TIMING).  The wrappers sit in the
 * recording's own sections (RECORDING_CODE), so the profiler counts the
 * time spent in them apart from the variant's.
 * WRAPPED(name) names this set's functions. */

#if PROFILED
#define MARK(fn, at) profile_mark(fn, (at) / sizeof(uint64_t), __builtin_dwarf_cfa(), __builtin_return_address(0))
#else
#define MARK(fn, at) ((void)0)
#endif

RECORDING_CODE(memcpy) static void *WRAPPED(memcpy)(void *restrict d, const void *restrict s, size_t n)
{
	unsigned at = call_bucket_offset(n);
	MARK(FN_MEMCPY, at);
	return copy_then(TIMED, target.memcpy, FN_MEMCPY, E_MEMCPY, d, s, n, at);
}

RECORDING_CODE(memcpy) static void *WRAPPED(mempcpy)(void *restrict d, const void *restrict s, size_t n)
{
	unsigned at = call_bucket_offset(n);
	MARK(FN_MEMCPY, at);
	return copy_then(TIMED, target.mempcpy, FN_MEMCPY, E_MEMPCPY, d, s, n, at);
}

RECORDING_CODE(memcpy) static void *WRAPPED(memcpy_chk)(void *restrict d, const void *restrict s, size_t n, size_t room)
{
	unsigned at = call_bucket_offset(n);
	MARK(FN_MEMCPY, at);
	return copy_chk_then(TIMED, target.memcpy_chk, FN_MEMCPY, E_MEMCPY_CHK, d, s, n, room, at);
}

RECORDING_CODE(memcpy) static void *WRAPPED(mempcpy_chk)(void *restrict d, const void *restrict s, size_t n, size_t room)
{
	unsigned at = call_bucket_offset(n);
	MARK(FN_MEMCPY, at);
	return copy_chk_then(TIMED, target.mempcpy_chk, FN_MEMCPY, E_MEMPCPY_CHK, d, s, n, room, at);
}

RECORDING_CODE(memmove) static void *WRAPPED(memmove)(void *d, const void *s, size_t n)
{
	unsigned at = call_bucket_offset(n);
	MARK(FN_MEMMOVE, at);
	return copy_then(TIMED, target.memmove, FN_MEMMOVE, E_MEMMOVE, d, s, n, at);
}

RECORDING_CODE(memmove) static void *WRAPPED(memmove_chk)(void *d, const void *s, size_t n, size_t room)
{
	unsigned at = call_bucket_offset(n);
	MARK(FN_MEMMOVE, at);
	return copy_chk_then(TIMED, target.memmove_chk, FN_MEMMOVE, E_MEMMOVE_CHK, d, s, n, room, at);
}

RECORDING_CODE(memmove) static void WRAPPED(bcopy)(const void *s, void *d, size_t n)
{
	unsigned at = call_bucket_offset(n);
	MARK(FN_MEMMOVE, at);
	record_copy(TIMED, FN_MEMMOVE, E_BCOPY, d, s, n, at);
	target.bcopy(s, d, n);
}

RECORDING_CODE(memset) static void *WRAPPED(memset)(void *d, int c, size_t n)
{
	unsigned at = call_bucket_offset(n);
	MARK(FN_MEMSET, at);
	return set_then(TIMED, target.memset, E_MEMSET, d, c, n, at);
}

RECORDING_CODE(memset) static void *WRAPPED(memset_chk)(void *d, int c, size_t n, size_t room)
{
	unsigned at = call_bucket_offset(n);
	MARK(FN_MEMSET, at);
	return set_chk_then(TIMED, target.memset_chk, E_MEMSET_CHK, d, c, n, room, at);
}

RECORDING_CODE(memset) static void WRAPPED(bzero)(void *d, size_t n)
{
	unsigned at = call_bucket_offset(n);
	MARK(FN_MEMSET, at);
	record_set(TIMED, E_BZERO, d, 0, n, at);
	target.bzero(d, n);
}

RECORDING_CODE(memset) static void WRAPPED(explicit_bzero)(void *d, size_t n)
{
	unsigned at = call_bucket_offset(n);
	MARK(FN_MEMSET, at);
	record_set(TIMED, E_EXPLICIT_BZERO, d, 0, n, at);
	target.explicit_bzero(d, n);
}

RECORDING_CODE(memset) static void WRAPPED(explicit_bzero_chk)(void *d, size_t n, size_t room)
{
	unsigned at = call_bucket_offset(n);
	MARK(FN_MEMSET, at);
	record_set(TIMED, E_EXPLICIT_BZERO_CHK, d, 0, n, at);
	target.explicit_bzero_chk(d, n, room);
}

#define WRAPPER_OF(v, entry, ...) .entry = WRAPPED(entry),
static const struct entry_set WRAPPED(entries) = { MEMSHIM_ENTRY_POINTS(WRAPPER_OF, ) };
#undef WRAPPER_OF

#undef MARK
