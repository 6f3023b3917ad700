#include "dispatch/variants.h"

#include "dispatch/early_env.h"
#include "dispatch/message.h"
#include "dispatch/next_symbol.h"
#include "shim/thresholds.h"

const char *const base_function_names[FN_COUNT] = { "memcpy", "memmove", "memset" };

/* The entry sets of the variants compiled here (code "shim"), each with the
 * function the table calls for it; glibc's (code "libc") is looked up below. */
/* Weak: the memshim program links this table without the variants'
 * code (it times the library's), and there no entry set is ever asked for. */
#define ENTRIES_FUNCTION_shim(name)                                                                \
	extern const struct entry_set memshim_entries_##name __attribute__((weak));                    \
	static const struct entry_set *name##_entries(void) { return &memshim_entries_##name; }
#define ENTRIES_FUNCTION_libc(name)
#define MEMSHIM_VARIANT(name, code, ...) ENTRIES_FUNCTION_##code(name)
#include "shim/memshim_variants.h"
#undef MEMSHIM_VARIANT

static bool has_avx2(const struct cpu_features *f) { return f->avx2; }
/* The AVX-512 code uses byte-granular (BW) instructions on 128/256-bit (VL)
 * registers too, and BZHI for its masks (every AVX-512 CPU has BMI2). */
static bool has_avx512(const struct cpu_features *f)
{
	return f->avx512f && f->avx512bw && f->avx512vl && f->bmi2;
}
static bool has_erms(const struct cpu_features *f) { return f->erms; }
static bool has_avx2_erms(const struct cpu_features *f) { return has_avx2(f) && f->erms; }
static bool has_avx512_erms(const struct cpu_features *f) { return has_avx512(f) && f->erms; }

/* " (WHAT from N B" */
static void add_threshold(struct line *l, const char *what, size_t bytes)
{
	line_add(l, what);
	line_add(l, " from ");
	line_add_number(l, bytes);
	line_add(l, " B");
}

static void describe_erms(enum base_function fn, const struct thresholds *t, struct line *l)
{
	line_add(l, " (");
	if (fn == FN_MEMSET)
		add_threshold(l, "rep stosb", t->stosb);
	else
		add_threshold(l, "rep movsb", t->movsb);
	line_add(l, ")");
}

static void describe_vector(enum base_function fn, const struct thresholds *t, struct line *l)
{
	(void)fn;
	line_add(l, " (");
	add_threshold(l, "non-temporal", t->nt);
	line_add(l, ")");
}

static void describe_vector_erms(enum base_function fn, const struct thresholds *t, struct line *l)
{
	line_add(l, " (");
	if (fn == FN_MEMSET)
		add_threshold(l, "rep stosb", t->stosb);
	else
		add_threshold(l, "rep movsb", t->movsb);
	if (fn != FN_MEMSET && t->movsb_stop) {
		line_add(l, " to ");
		line_add_number(l, t->movsb_stop);
		line_add(l, " B");
	}
	line_add(l, ", ");
	add_threshold(l, "non-temporal", t->nt);
	line_add(l, ")");
}

/* glibc: the C library's own definitions, looked up once (dispatch/next_symbol.c). */
static struct entry_set glibc_set;

static bool lookup_glibc(void)
{
	struct entry_set *g = &glibc_set;
	bool found = true;
#define LOOK_UP(v, entry, symbol, ...) found &= (g->entry = next_symbol(#symbol)) != NULL;
	MEMSHIM_ENTRY_POINTS(LOOK_UP, )
#undef LOOK_UP
	return found;
}

static const struct entry_set *glibc_entries(void)
{
	/* 0: not looked up, 1: found, 2: missing.  The lookup is idempotent, so
	 * two threads racing here both find the same addresses. */
	static int state;
	int seen = __atomic_load_n(&state, __ATOMIC_ACQUIRE);
	if (seen == 0) {
		seen = lookup_glibc() ? 1 : 2;
		__atomic_store_n(&state, seen, __ATOMIC_RELEASE);
	}
	return seen == 1 ? &glibc_set : NULL;
}

#define ENTRIES_OF_shim(name) name##_entries
#define ENTRIES_OF_libc(name) glibc_entries
#define MEMSHIM_VARIANT(name, code, vector_bytes, rep_range, twin, unmasked, usable, describe, summary)  \
	[VARIANT_ID_##name] = { #name, summary, usable, ENTRIES_OF_##code(name), describe, vector_bytes, rep_range, \
				VARIANT_ID_##twin, VARIANT_ID_##unmasked },
const struct variant variant_table[VARIANT_COUNT] = {
#include "shim/memshim_variants.h"
};
#undef MEMSHIM_VARIANT
const unsigned variant_count = sizeof variant_table / sizeof variant_table[0];

const struct variant *variant_named(const char *name)
{
	for (unsigned i = 0; i < variant_count; i++)
		if (same_string(variant_table[i].name, name))
			return &variant_table[i];
	return NULL;
}

/* Variants retired for being chosen by no row or preset and fastest in no
 * cell of any row's data (D50), and the variant that remains nearest to
 * each: it runs the retired one's code and more. */
static const struct {
	const char *name, *nearest;
} retired[] = {
	{ "evex_erms", "evex_mask_erms" },
	{ "evex_mask", "evex_mask_erms" },
};

const struct variant *variant_setting_named(const char *name)
{
	const struct variant *v = variant_named(name);
	for (unsigned i = 0; !v && i < sizeof retired / sizeof retired[0]; i++)
		if (same_string(retired[i].name, name)) {
			v = variant_named(retired[i].nearest);
			warn_retired(name, v->name);
		}
	return v;
}

bool variant_usable_on(const struct variant *v, const struct cpu_features *f)
{
	/* glibc's entries may be missing; ours are there wherever they are asked for */
	return (!v->usable || v->usable(f)) && (v->entries != glibc_entries || glibc_entries() != NULL);
}

bool variant_usable(const struct variant *v)
{
	return variant_usable_on(v, cpu_features());
}
