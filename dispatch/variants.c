#include "dispatch/variants.h"

#include "dispatch/early_env.h"
#include "dispatch/next_symbol.h"
#include "shim/thresholds.h"

const char *const base_function_names[FN_COUNT] = { "memcpy", "memmove", "memset" };

extern const struct entry_set memshim_entries_fsrm, memshim_entries_erms, memshim_entries_scalar,
	memshim_entries_movsq;
extern const struct entry_set memshim_entries_sse2, memshim_entries_avx2, memshim_entries_avx512,
	memshim_entries_sse2_erms, memshim_entries_avx2_erms, memshim_entries_avx512_erms,
	memshim_entries_evex, memshim_entries_evex_erms, memshim_entries_avx2_xmm, memshim_entries_avx2_xmm_erms;

static const struct entry_set *fsrm_entries(void) { return &memshim_entries_fsrm; }
static const struct entry_set *erms_entries(void) { return &memshim_entries_erms; }
static const struct entry_set *scalar_entries(void) { return &memshim_entries_scalar; }
static const struct entry_set *movsq_entries(void) { return &memshim_entries_movsq; }
static const struct entry_set *sse2_entries(void) { return &memshim_entries_sse2; }
static const struct entry_set *avx2_entries(void) { return &memshim_entries_avx2; }
static const struct entry_set *avx512_entries(void) { return &memshim_entries_avx512; }
static const struct entry_set *sse2_erms_entries(void) { return &memshim_entries_sse2_erms; }
static const struct entry_set *avx2_erms_entries(void) { return &memshim_entries_avx2_erms; }
static const struct entry_set *avx512_erms_entries(void) { return &memshim_entries_avx512_erms; }
static const struct entry_set *evex_entries(void) { return &memshim_entries_evex; }
static const struct entry_set *evex_erms_entries(void) { return &memshim_entries_evex_erms; }
static const struct entry_set *avx2_xmm_entries(void) { return &memshim_entries_avx2_xmm; }
static const struct entry_set *avx2_xmm_erms_entries(void) { return &memshim_entries_avx2_xmm_erms; }

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

static void describe_erms(enum base_function fn, struct line *l)
{
	line_add(l, " (");
	if (fn == FN_MEMSET)
		add_threshold(l, "rep stosb", memshim_thresholds.stosb);
	else
		add_threshold(l, "rep movsb", memshim_thresholds.erms);
	line_add(l, ")");
}

static void describe_vector(enum base_function fn, struct line *l)
{
	(void)fn;
	line_add(l, " (");
	add_threshold(l, "non-temporal", memshim_thresholds.nt);
	line_add(l, ")");
}

static void describe_vector_erms(enum base_function fn, struct line *l)
{
	line_add(l, " (");
	if (fn == FN_MEMSET)
		add_threshold(l, "rep stosb", memshim_thresholds.auto_stosb);
	else
		add_threshold(l, "rep movsb", memshim_thresholds.auto_movsb);
	line_add(l, ", ");
	add_threshold(l, "non-temporal", memshim_thresholds.nt);
	line_add(l, ")");
}

/* glibc: the C library's own definitions, looked up once (dispatch/next_symbol.c). */
static struct entry_set glibc_set;

static bool lookup_glibc(void)
{
	struct entry_set *g = &glibc_set;
	g->memcpy = next_symbol("memcpy");
	g->mempcpy = next_symbol("mempcpy");
	g->memcpy_chk = next_symbol("__memcpy_chk");
	g->mempcpy_chk = next_symbol("__mempcpy_chk");
	g->memmove = next_symbol("memmove");
	g->memmove_chk = next_symbol("__memmove_chk");
	g->bcopy = next_symbol("bcopy");
	g->memset = next_symbol("memset");
	g->memset_chk = next_symbol("__memset_chk");
	g->bzero = next_symbol("bzero");
	g->explicit_bzero = next_symbol("explicit_bzero");
	g->explicit_bzero_chk = next_symbol("__explicit_bzero_chk");
	return g->memcpy && g->mempcpy && g->memcpy_chk && g->mempcpy_chk && g->memmove &&
	       g->memmove_chk && g->bcopy && g->memset && g->memset_chk && g->bzero &&
	       g->explicit_bzero && g->explicit_bzero_chk;
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

const struct variant variant_table[] = {
	{ "fsrm", "rep movsb / rep stosb at every size (kernel: CPUs with FSRM)", NULL, fsrm_entries, NULL },
	{ "erms", "scalar below MEMSHIM_ERMS_THRESHOLD, rep movsb at and above (kernel: ERMS without FSRM)",
	  NULL, erms_entries, describe_erms },
	{ "scalar", "general-purpose registers only, aligned 32-byte loop, no string instructions", NULL,
	  scalar_entries, NULL },
	{ "movsq", "rep movsq with an 8-byte-aligned destination above 64 bytes (kernel: no ERMS)", NULL,
	  movsq_entries, NULL },
	{ "glibc", "the C library's own functions (the next definition after this library)", NULL,
	  glibc_entries, NULL },
	/* The vector variants (shim/vector_pieces.h); the *_erms rows add a rep
	 * movsb band and are what the auto policy picks on ERMS CPUs. */
	{ "sse2", "16-byte vectors, aligned 4-vector loop, non-temporal from MEMSHIM_NT_THRESHOLD", NULL,
	  sse2_entries, describe_vector },
	{ "avx2", "32-byte vectors, aligned 4-vector loop, non-temporal from MEMSHIM_NT_THRESHOLD", has_avx2,
	  avx2_entries, describe_vector },
	{ "avx512", "64-byte vectors, masked below 64 B, non-temporal from MEMSHIM_NT_THRESHOLD",
	  has_avx512, avx512_entries, describe_vector },
	{ "sse2_erms", "sse2, with rep movsb/stosb from MEMSHIM_AUTO_MOVSB/STOSB_THRESHOLD", has_erms,
	  sse2_erms_entries, describe_vector_erms },
	{ "avx2_erms", "avx2, with rep movsb/stosb from MEMSHIM_AUTO_MOVSB/STOSB_THRESHOLD", has_avx2_erms,
	  avx2_erms_entries, describe_vector_erms },
	{ "avx512_erms", "avx512, with rep movsb/stosb from MEMSHIM_AUTO_MOVSB/STOSB_THRESHOLD",
	  has_avx512_erms, avx512_erms_entries, describe_vector_erms },
	{ "evex", "32-byte EVEX vectors, masked below 64 B, non-temporal from MEMSHIM_NT_THRESHOLD",
	  has_avx512, evex_entries, describe_vector },
	{ "evex_erms", "evex, with rep movsb/stosb from MEMSHIM_AUTO_MOVSB/STOSB_THRESHOLD",
	  has_avx512_erms, evex_erms_entries, describe_vector_erms },
	/* A composite of the pieces above, for what calibration measured best
	 * per size band (shim/vector_avx2_xmm.c). */
	{ "avx2_xmm", "avx2 from 64 B, 16-byte blocks below (sse2's small pieces)", has_avx2, avx2_xmm_entries,
	  describe_vector },
	{ "avx2_xmm_erms", "avx2_xmm, with rep movsb/stosb from MEMSHIM_AUTO_MOVSB/STOSB_THRESHOLD", has_avx2_erms,
	  avx2_xmm_erms_entries, describe_vector_erms },
};
const unsigned variant_count = sizeof variant_table / sizeof variant_table[0];

const struct variant *variant_named(const char *name)
{
	for (unsigned i = 0; i < variant_count; i++)
		if (same_string(variant_table[i].name, name))
			return &variant_table[i];
	return NULL;
}

bool variant_usable_on(const struct variant *v, const struct cpu_features *f)
{
	return (!v->usable || v->usable(f)) && v->entries() != NULL;
}

bool variant_usable(const struct variant *v)
{
	return variant_usable_on(v, cpu_features());
}
