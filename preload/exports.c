/* The exported functions: each a stub that compares the size with the
 * first two bands' bounds and jumps through their slots or a last one,
 * whose resolver fills them all once, when the dynamic linker relocates
 * this library (dispatch/export_stub.h says why not a plain indirect
 * function).  After that a call costs the variant and the stub's predicted
 * jumps (or nothing more, once bound directly): no per-call look at the
 * configuration.
 *
 * The resolvers and everything they call use no C library function and no
 * memcpy: with -z now they run while the dynamic linker is still relocating
 * the program (see dispatch/early_env.h). */
#include "dispatch/config.h"
#include "dispatch/export_stub.h"
#include "dispatch/banded.h"
#include "preload/direct_bind.h"
#include "preload/record_start.h"
#include "preload/record.h"
#include "shim/memshim.h"

/* Every exported name, declared here: glibc's headers declare the _chk
 * forms only under _FORTIFY_SOURCE. */
#define DECLARE_SYMBOL(v, entry, symbol, base, size_register, id, return_type, parameters)         \
	extern return_type symbol parameters;
MEMSHIM_ENTRY_POINTS(DECLARE_SYMBOL, )
extern void *__mempcpy(void *, const void *, size_t);

/* The member of fn's entry points in e: memcpy, memmove or memset's own,
 * or one that follows it (mempcpy, __memcpy_chk, bzero, ...). */
#define MEMBER(e, member) ((void *)(e)->member)

/* How calls of fn are served: the first two bands by the stub itself
 * (bounds and entry sets into bound[] and first[]), the rest by the
 * returned set: the third band's variant, or the band dispatcher from the
 * third band on.  One band, or recording (whose wrappers serve every size
 * and hand the call to the bands themselves): first[0] everywhere. */
static const struct entry_set *split_entries(enum base_function fn, size_t bound[2],
                                             const struct entry_set *first[2])
{
	const struct config *c = config_get();
	const struct band_list *bands = &c->choice[fn].bands;
	bound[0] = bound[1] = SIZE_MAX;
	if (c->ab) {
		first[0] = first[1] = record_ab_entries(fn, banded_entries(fn, &c->ab_bands[0][fn]),
		                                        banded_entries(fn, &c->ab_bands[1][fn]));
		return first[0];
	}
	if (c->hist_path[0]) {
		first[0] = first[1] = record_entries(fn, banded_entries(fn, bands));
		return first[0];
	}
	for (unsigned i = 0; i < 2; i++) {
		unsigned b = i < bands->count ? i : bands->count - 1;
		first[i] = bands->variant[b]->entries();
		if (i + 1 < bands->count)
			bound[i] = bands->upper[i];
	}
	if (bands->count <= 2)
		return first[bands->count - 1];
	struct band_list rest;
	rest.count = bands->count - 2;
	for (unsigned i = 0; i < rest.count; i++) {
		rest.upper[i] = bands->upper[i + 2];
		rest.variant[i] = bands->variant[i + 2];
	}
	return banded_entries(fn, &rest);
}

/* Each exported name: its first two bands into the stub's slots, the rest
 * as the resolver's result. */
#define EXPORT_IFUNC(symbol, size_reg, fn, member)                                                  \
	extern struct export_bands memshim_bands_##symbol;                                            \
	static __typeof__(symbol) *resolve_##symbol(void)                                             \
	{                                                                                             \
		const struct entry_set *first[2];                                                         \
		const struct entry_set *rest = split_entries(fn, memshim_bands_##symbol.bound, first);     \
		memshim_bands_##symbol.function[0] = MEMBER(first[0], member);                            \
		memshim_bands_##symbol.function[1] = MEMBER(first[1], member);                            \
		return rest->member;                                                                      \
	}                                                                                             \
	MEMSHIM_EXPORT_BANDED_STUB(symbol, size_reg, resolve_##symbol)

#define EXPORT_ENTRY(v, entry, symbol, base, size_register, ...) EXPORT_IFUNC(symbol, #size_register, base, entry);
MEMSHIM_ENTRY_POINTS(EXPORT_ENTRY, )
/* glibc's own name for mempcpy, which its headers once sent calls to. */
EXPORT_IFUNC(__mempcpy, "rdx", FN_MEMCPY, mempcpy);

#define DECLARE_STUB(v, entry, symbol, ...) extern const char memshim_stub_##symbol[];
MEMSHIM_ENTRY_POINTS(DECLARE_STUB, )
extern const char memshim_stub___mempcpy[];

/* An exported string function: its name, its stub, and the one band's
 * function (NULL with bands). */
#define BINDING(symbol)                                                                            \
	{ #symbol, memshim_stub_##symbol, export_bands_single_target(&memshim_bands_##symbol) }
#define BINDING_ENTRY(v, entry, symbol, ...) BINDING(symbol),

/* The objects loaded with the program call the functions that have one
 * band without the stub, unless MEMSHIM_BIND=stub. */
static void bind_directly(void)
{
	if (!config_get()->direct_binding)
		return;
	const struct direct_binding names[] = { MEMSHIM_ENTRY_POINTS(BINDING_ENTRY, ) BINDING(__mempcpy) };
	_Static_assert(sizeof names / sizeof names[0] <= BIND_NAMES_MAX, "one walk takes every exported name");
	direct_bind_loaded_objects(names, sizeof names / sizeof names[0]);
}

/* Reads the configuration before main() even if nothing has been bound yet
 * (lazy binding), so problems are reported at start and a program that
 * later rewrites its environment area (setproctitle) cannot change it. */
__attribute__((constructor(101))) static void read_configuration_early(void)
{
	config_get();
	record_start();
	bind_directly();
}

MEMSHIM_EXPORT const char *memshim_variant_name(unsigned i)
{
	return i < variant_count ? variant_table[i].name : NULL;
}

MEMSHIM_EXPORT int memshim_variant_usable(unsigned i)
{
	return i < variant_count && variant_usable(&variant_table[i]);
}

MEMSHIM_EXPORT void memshim_get_threshold_values(struct memshim_threshold_values *t)
{
	config_get(); /* read at load; never before the configuration's thresholds */
	const struct thresholds *now = &memshim_thresholds;
	*t = (struct memshim_threshold_values){ .movsb = now->movsb, .stosb = now->stosb, .nt = now->nt,
		                                .movsb_stop = now->movsb_stop,
		                                .set_stosb_beyond_nt = now->set_stosb_beyond_nt };
}

/* The library's one write of the thresholds after start-up (shim/memshim.h). */
MEMSHIM_EXPORT void memshim_measure_thresholds(const struct memshim_threshold_values *t)
{
	const struct thresholds *resolved = &config_get()->thresholds;
	if (!t) {
		memshim_thresholds = *resolved;
		return;
	}
	memshim_thresholds = (struct thresholds){
		.movsb = t->movsb, .stosb = t->stosb, .nt = t->nt, .movsb_stop = t->movsb_stop, .set_stosb_beyond_nt = t->set_stosb_beyond_nt != 0,
	};
}
