/* One set of recording wrappers, included five times by preload/record.c.
 *
 * A wrapper finds the call's size bucket (`b`),
 * records the call and then jumps to the variant (a tail call: nothing is
 * added after the count; see copy_then in preload/record.c for why most go
 * through it).  With AB 1 it records, then calls arm A's or arm B's
 * function, timed (preload/ab.h).  With PROFILED 1 it marks the call in progress for
 * the profiler (preload/profile.h): two stores, which only a process started
 * with MEMSHIM_PROFILE pays; the entry points that jump to the variant mark
 * it after counting it (copy_then in preload/record.c says why), the others
 * first.  With TIMED true it counts down to the
 * thread's next timed call (MEMSHIM_TIMING).  The wrappers sit in the
 * recording's own sections (RECORDING_CODE), so the profiler counts the
 * time spent in them apart from the variant's.
 * WRAPPED(name) names this set's functions. */

#if AB
#define COPY_THEN(m, fn, e, d, s, n, b) (record_copy(false, fn, e, d, s, n, b), AB_CALL(fn, n, m, (d, s, n)))
#define COPY_CHK_THEN(m, fn, e, d, s, n, room, b)                                                  \
	(record_copy(false, fn, e, d, s, n, b), AB_CALL(fn, n, m, (d, s, n, room)))
#define SET_THEN(m, e, d, c, n, b) (record_set(false, e, d, c, n, b), AB_CALL(FN_MEMSET, n, m, (d, c, n)))
#define SET_CHK_THEN(m, e, d, c, n, room, b)                                                       \
	(record_set(false, e, d, c, n, b), AB_CALL(FN_MEMSET, n, m, (d, c, n, room)))
#define CALL_VOID(fn, n, m, args) AB_CALL_VOID(fn, n, m, args)
#define RECORD_TIMED false
#else
#define COPY_THEN(m, fn, e, d, s, n, b) copy_then(TIMED, PROFILED, target.m, fn, e, d, s, n, b)
#define COPY_CHK_THEN(m, fn, e, d, s, n, room, b) copy_chk_then(TIMED, PROFILED, target.m, fn, e, d, s, n, room, b)
#define SET_THEN(m, e, d, c, n, b) set_then(TIMED, PROFILED, target.m, e, d, c, n, b)
#define SET_CHK_THEN(m, e, d, c, n, room, b) set_chk_then(TIMED, PROFILED, target.m, e, d, c, n, room, b)
#define CALL_VOID(fn, n, m, args) target.m args
#define RECORD_TIMED TIMED
#endif

#if PROFILED
#define MARK(fn, b) profile_mark(fn, b, __builtin_dwarf_cfa(), __builtin_return_address(0))
#else
#define MARK(fn, b) ((void)0)
#endif

RECORDING_CODE(memcpy) static void *WRAPPED(memcpy)(void *restrict d, const void *restrict s, size_t n)
{
	unsigned b = call_bucket(n);
	return COPY_THEN(memcpy, FN_MEMCPY, E_MEMCPY, d, s, n, b);
}

RECORDING_CODE(memcpy) static void *WRAPPED(mempcpy)(void *restrict d, const void *restrict s, size_t n)
{
	unsigned b = call_bucket(n);
	return COPY_THEN(mempcpy, FN_MEMCPY, E_MEMPCPY, d, s, n, b);
}

RECORDING_CODE(memcpy) static void *WRAPPED(memcpy_chk)(void *restrict d, const void *restrict s, size_t n, size_t room)
{
	unsigned b = call_bucket(n);
	return COPY_CHK_THEN(memcpy_chk, FN_MEMCPY, E_MEMCPY_CHK, d, s, n, room, b);
}

RECORDING_CODE(memcpy) static void *WRAPPED(mempcpy_chk)(void *restrict d, const void *restrict s, size_t n, size_t room)
{
	unsigned b = call_bucket(n);
	return COPY_CHK_THEN(mempcpy_chk, FN_MEMCPY, E_MEMPCPY_CHK, d, s, n, room, b);
}

RECORDING_CODE(memmove) static void *WRAPPED(memmove)(void *d, const void *s, size_t n)
{
	unsigned b = call_bucket(n);
	return COPY_THEN(memmove, FN_MEMMOVE, E_MEMMOVE, d, s, n, b);
}

RECORDING_CODE(memmove) static void *WRAPPED(memmove_chk)(void *d, const void *s, size_t n, size_t room)
{
	unsigned b = call_bucket(n);
	return COPY_CHK_THEN(memmove_chk, FN_MEMMOVE, E_MEMMOVE_CHK, d, s, n, room, b);
}

RECORDING_CODE(memmove) static void WRAPPED(bcopy)(const void *s, void *d, size_t n)
{
	unsigned b = call_bucket(n);
	MARK(FN_MEMMOVE, b);
	record_copy(RECORD_TIMED, FN_MEMMOVE, E_BCOPY, d, s, n, b);
	CALL_VOID(FN_MEMMOVE, n, bcopy, (s, d, n));
}

RECORDING_CODE(memset) static void *WRAPPED(memset)(void *d, int c, size_t n)
{
	unsigned b = call_bucket(n);
	return SET_THEN(memset, E_MEMSET, d, c, n, b);
}

RECORDING_CODE(memset) static void *WRAPPED(memset_chk)(void *d, int c, size_t n, size_t room)
{
	unsigned b = call_bucket(n);
	return SET_CHK_THEN(memset_chk, E_MEMSET_CHK, d, c, n, room, b);
}

RECORDING_CODE(memset) static void WRAPPED(bzero)(void *d, size_t n)
{
	unsigned b = call_bucket(n);
	MARK(FN_MEMSET, b);
	record_set(RECORD_TIMED, E_BZERO, d, 0, n, b);
	CALL_VOID(FN_MEMSET, n, bzero, (d, n));
}

RECORDING_CODE(memset) static void WRAPPED(explicit_bzero)(void *d, size_t n)
{
	unsigned b = call_bucket(n);
	MARK(FN_MEMSET, b);
	record_set(RECORD_TIMED, E_EXPLICIT_BZERO, d, 0, n, b);
	CALL_VOID(FN_MEMSET, n, explicit_bzero, (d, n));
}

RECORDING_CODE(memset) static void WRAPPED(explicit_bzero_chk)(void *d, size_t n, size_t room)
{
	unsigned b = call_bucket(n);
	MARK(FN_MEMSET, b);
	record_set(RECORD_TIMED, E_EXPLICIT_BZERO_CHK, d, 0, n, b);
	CALL_VOID(FN_MEMSET, n, explicit_bzero_chk, (d, n, room));
}

#define WRAPPER_OF(v, entry, ...) .entry = WRAPPED(entry),
static const struct entry_set WRAPPED(entries) = { MEMSHIM_ENTRY_POINTS(WRAPPER_OF, ) };
#undef WRAPPER_OF

#undef MARK
#undef COPY_THEN
#undef COPY_CHK_THEN
#undef SET_THEN
#undef SET_CHK_THEN
#undef CALL_VOID
#undef RECORD_TIMED
