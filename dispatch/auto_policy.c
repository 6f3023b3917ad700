#include "dispatch/auto_policy.h"

#include "dispatch/early_env.h"

/* Preference order: rows for one vendor's CPUs first, then the widest
 * vectors; on ERMS CPUs the rows with a rep movsb band (their usable
 * predicates require ERMS) before those without.
 *
 * AMD with AVX-512 (Zen 4, which runs 512-bit operations as two halves):
 * evex, measured there with memshim bench (class and dist cases): its
 * 32-byte loops beat avx512's 64-byte ones by 15-25% on 257 B..32 KiB in
 * cache and by about 10% from 32 KiB to 256 KiB out of it, and rep movsb beats neither at any size
 * below the non-temporal threshold (1-4 KiB: 1.0-1.45x glibc against
 * 0.75-0.85x), so evex has no rep movsb band. */
static const struct {
	const char *variant;
	const char *vendor; /* NULL: any */
	const char *why;
} auto_preference[] = {
	{ "evex", "AuthenticAMD", "AMD with AVX-512: 32-byte vectors, masked below 64 B, no rep band" },
	{ "avx512_erms", NULL, "AVX-512 and ERMS" },
	{ "avx2_erms", NULL, "AVX2 and ERMS, no AVX-512" },
	{ "sse2_erms", NULL, "ERMS, no AVX2" },
	{ "avx512", NULL, "AVX-512, no ERMS" },
	{ "avx2", NULL, "AVX2, no AVX-512, no ERMS" },
	{ "sse2", NULL, "no AVX2, no ERMS" },
};

const struct variant *auto_policy_variant(const struct cpu_features *f, const char **why)
{
	unsigned last = sizeof auto_preference / sizeof auto_preference[0] - 1;
	for (unsigned i = 0; i < last; i++) {
		const struct variant *v = variant_named(auto_preference[i].variant);
		const char *vendor = auto_preference[i].vendor;
		if (vendor && !same_string(vendor, f->vendor))
			continue;
		if (!v->usable || v->usable(f)) {
			*why = auto_preference[i].why;
			return v;
		}
	}
	*why = auto_preference[last].why; /* sse2 runs on every x86-64 */
	return variant_named(auto_preference[last].variant);
}

/* Where the rep movsb / rep stosb band of the *_erms rows starts, by CPU:
 * the first row whose vendor matches (NULL: any) and whose family is at
 * least first_family.  Starting points, not measurements: the 2048-byte
 * ERMS cutoff the kernel adopted on Skylake and Cooper Lake (seed 001),
 * which is also glibc's rep_stosb_threshold.  The benchmark data replace
 * these rows, per vendor and family. */
static const struct {
	const char *vendor;
	unsigned first_family;
	size_t movsb, stosb;
	bool set_stosb_beyond_nt; /* memset from the nt threshold on: rep stosb, not NT stores */
} auto_defaults_by_cpu[] = {
	{ "GenuineIntel", 0, 2048, 2048, false },
	/* Zen 3 and later: FSRM, ERMS.  memset of 32-64 MiB on Zen 4 (memshim
	 * bench sweep, same runs): rep stosb 0.96-1.03x glibc (which uses rep
	 * stosb there too), our non-temporal loop 1.02-1.09x, the cached loop
	 * 0.91-1.12x.  memcpy keeps its non-temporal loop: 0.68-0.75x glibc. */
	{ "AuthenticAMD", 0x19, 2048, 2048, true },
	{ NULL, 0, 2048, 2048, false },
};

/* Non-temporal stores from 3/4 of the last-level cache: a copy that large
 * would evict most of what the cache holds (glibc's non_temporal_threshold
 * is also 3/4 of a cache share).  When CPUID gives no L3 size, 3/4 of 8 MiB. */
#define NT_SHARE_OF_L3(bytes) ((bytes) / 4 * 3)
#define L3_BYTES_FALLBACK (8u << 20)

void auto_default_thresholds(const struct cpu_features *f, struct thresholds *t)
{
	unsigned i = 0;
	for (;; i++) {
		const char *vendor = auto_defaults_by_cpu[i].vendor;
		if (!vendor || (same_string(vendor, f->vendor) && f->family >= auto_defaults_by_cpu[i].first_family))
			break;
	}
	t->auto_movsb = auto_defaults_by_cpu[i].movsb;
	t->auto_stosb = auto_defaults_by_cpu[i].stosb;
	t->set_stosb_beyond_nt = auto_defaults_by_cpu[i].set_stosb_beyond_nt;
	t->nt = NT_SHARE_OF_L3(f->l3_bytes ? f->l3_bytes : L3_BYTES_FALLBACK);
}
