#include "dispatch/variants.h"

#include "dispatch/early_env.h"
#include "dispatch/next_symbol.h"

const char *const base_function_names[FN_COUNT] = { "memcpy", "memmove", "memset" };

extern const struct entry_set memshim_entries_fsrm, memshim_entries_erms, memshim_entries_scalar,
	memshim_entries_movsq;

static const struct entry_set *fsrm_entries(void) { return &memshim_entries_fsrm; }
static const struct entry_set *erms_entries(void) { return &memshim_entries_erms; }
static const struct entry_set *scalar_entries(void) { return &memshim_entries_scalar; }
static const struct entry_set *movsq_entries(void) { return &memshim_entries_movsq; }

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
	{ "fsrm", "rep movsb / rep stosb at every size (kernel: CPUs with FSRM)", NULL, fsrm_entries },
	{ "erms", "scalar below MEMSHIM_ERMS_THRESHOLD, rep movsb at and above (kernel: ERMS without FSRM)",
	  NULL, erms_entries },
	{ "scalar", "general-purpose registers only, aligned 32-byte loop, no string instructions", NULL,
	  scalar_entries },
	{ "movsq", "rep movsq with an 8-byte-aligned destination above 64 bytes (kernel: no ERMS)", NULL,
	  movsq_entries },
	{ "glibc", "the C library's own functions (the next definition after this library)", NULL,
	  glibc_entries },
};
const unsigned variant_count = sizeof variant_table / sizeof variant_table[0];

const struct variant *variant_named(const char *name)
{
	for (unsigned i = 0; i < variant_count; i++)
		if (same_string(variant_table[i].name, name))
			return &variant_table[i];
	return NULL;
}

bool variant_usable(const struct variant *v)
{
	return (!v->usable || v->usable(cpu_features())) && v->entries() != NULL;
}
