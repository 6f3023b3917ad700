/* The built-in values (dispatch/builtin.h). */
#include "dispatch/builtin.h"

#include "dispatch/cpu_rows.h"
#include "dispatch/early_env.h"

/* Unmeasured CPUs: the widest vectors the CPU runs, with a rep movsb range
 * on ERMS CPUs (their usable predicates require ERMS). */
static const struct {
	const struct variant *variant;
	const char *why;
} widest_preference[] = {
	{ VARIANT(avx512_erms), "AVX-512 and ERMS" },
	{ VARIANT(avx2_erms), "AVX2 and ERMS, no AVX-512" },
	{ VARIANT(sse2_erms), "ERMS, no AVX2" },
	{ VARIANT(avx512), "AVX-512, no ERMS" },
	{ VARIANT(avx2), "AVX2, no AVX-512, no ERMS" },
	{ VARIANT(sse2), "no AVX2, no ERMS" },
};

const struct variant *widest_vector_variant(const struct cpu_features *f, const char **why)
{
	unsigned last = sizeof widest_preference / sizeof widest_preference[0] - 1;
	for (unsigned i = 0; i < last; i++) {
		const struct variant *v = widest_preference[i].variant;
		if (!v->usable || v->usable(f)) {
			*why = widest_preference[i].why;
			return v;
		}
	}
	*why = widest_preference[last].why; /* sse2 runs on every x86-64 */
	return widest_preference[last].variant;
}

/* Where rep movsb / rep stosb start (erms, and the rep range of the *_erms
 * variants), by CPU:
 * the first entry whose vendor matches (NULL: any) and whose family is at
 * least first_family.  Starting points, not measurements: for rep movsb
 * without FSRM, the 2048-byte ERMS cutoff proposed for the kernel on
 * Skylake and Cooper Lake ("x86/lib: Use REP MOVSB for large memcpy() on
 * ERMS CPUs without FSRM", LKML, 2026); for rep stosb, glibc's
 * rep_stosb_threshold, which it takes rep stosb above, so from 2049 bytes.
 * The benchmark data replace these entries, per vendor and family. */
static const struct {
	const char *vendor;
	unsigned first_family;
	size_t movsb, stosb;
	bool set_stosb_beyond_nt; /* memset from the nt threshold on: rep stosb, not NT stores */
} rep_from_by_cpu[] = {
	{ "GenuineIntel", 0, 2048, 2049, false },
	/* Zen 3 and later: FSRM, ERMS; memset from the non-temporal threshold
	 * on takes rep stosb, memcpy keeps its non-temporal loop (D16). */
	{ "AuthenticAMD", 0x19, 2048, 2049, true },
	{ NULL, 0, 2048, 2049, false },
};

/* With FSRM, rep movsb from 2113 bytes, where glibc 2.36 starts it: below,
 * rep movsb is slower than the vector loop (D14). */
#define FSRM_MOVSB_FROM 2113

/* Non-temporal stores from 3/4 of the last-level cache: a copy that large
 * would evict most of what the cache holds (glibc's non_temporal_threshold
 * is also 3/4 of a cache share).  When CPUID gives no L3 size, 3/4 of 8 MiB. */
#define NT_SHARE_OF_L3(bytes) ((bytes) / 4 * 3)
#define L3_BYTES_FALLBACK (8u << 20)

void builtin_thresholds(const struct cpu_features *f, struct thresholds *t)
{
	unsigned i = 0;
	for (;; i++) {
		const char *vendor = rep_from_by_cpu[i].vendor;
		if (!vendor || (same_string(vendor, f->vendor) && f->family >= rep_from_by_cpu[i].first_family))
			break;
	}
	t->movsb = f->fsrm ? FSRM_MOVSB_FROM : rep_from_by_cpu[i].movsb;
	t->stosb = rep_from_by_cpu[i].stosb;
	/* a row's rep thresholds were measured on its class: they win */
	const struct cpu_row *row = cpu_row_for(f);
	if (row && row->movsb)
		t->movsb = row->movsb;
	if (row && row->stosb)
		t->stosb = row->stosb;
	t->movsb_stop = row ? row->movsb_stop : 0;
	t->set_stosb_beyond_nt = rep_from_by_cpu[i].set_stosb_beyond_nt;
	t->nt = NT_SHARE_OF_L3(f->l3_bytes ? f->l3_bytes : L3_BYTES_FALLBACK);
}
