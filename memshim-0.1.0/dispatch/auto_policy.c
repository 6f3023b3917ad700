#include "dispatch/auto_policy.h"

#include "dispatch/early_env.h"

/* Where auto's choice was measured (memshim bench, class and dist cases,
 * variants interleaved with glibc's own functions; BENCHMARKS.md), each
 * function's best.  On such a CPU the default policy is auto.
 *
 * AMD family 0x19 with AVX-512 (Zen 4, which runs 512-bit operations as two
 * halves): evex for memcpy and memmove, at or below glibc in every size
 * class (0.64-1.00x in cache); its 32-byte loops beat avx512's 64-byte
 * ones by 15-25% on 257 B..32 KiB, and rep movsb beats neither below the
 * non-temporal threshold, so evex has no rep movsb band.  memset: glibc's
 * own, because evex's measured 1.03-1.10x glibc at 65-256 B and on the
 * fleet memset distributions. */
static const struct measured_row {
	const char *vendor;
	unsigned first_family;
	const char *requires; /* a variant this row's CPUs must be able to run */
	const char *variant[FN_COUNT];
	const char *why[FN_COUNT];
} measured[] = {
	{ "AuthenticAMD", 0x19, "evex", { "evex", "evex", "glibc" },
	  { "measured best on AMD family 0x19 with AVX-512, Zen 4",
	    "measured best on AMD family 0x19 with AVX-512, Zen 4",
	    "measured on AMD family 0x19 with AVX-512, Zen 4: evex 1.03-1.10x glibc at 65-256 B" } },
};

static const struct measured_row *measured_row(const struct cpu_features *f)
{
	for (unsigned i = 0; i < sizeof measured / sizeof measured[0]; i++) {
		const struct measured_row *r = &measured[i];
		const struct variant *needed = variant_named(r->requires);
		if (same_string(r->vendor, f->vendor) && f->family >= r->first_family &&
		    (!needed->usable || needed->usable(f)))
			return r;
	}
	return NULL;
}

/* Elsewhere, unmeasured: the widest vectors the CPU runs, with a rep movsb
 * band on ERMS CPUs (their usable predicates require ERMS). */
static const struct {
	const char *variant;
	const char *why;
} auto_preference[] = {
	{ "avx512_erms", "AVX-512 and ERMS" },
	{ "avx2_erms", "AVX2 and ERMS, no AVX-512" },
	{ "sse2_erms", "ERMS, no AVX2" },
	{ "avx512", "AVX-512, no ERMS" },
	{ "avx2", "AVX2, no AVX-512, no ERMS" },
	{ "sse2", "no AVX2, no ERMS" },
};

const struct variant *auto_policy_variant(const struct cpu_features *f, enum base_function fn,
                                          const char **why)
{
	const struct measured_row *r = measured_row(f);
	if (r) {
		*why = r->why[fn];
		return variant_named(r->variant[fn]);
	}
	unsigned last = sizeof auto_preference / sizeof auto_preference[0] - 1;
	for (unsigned i = 0; i < last; i++) {
		const struct variant *v = variant_named(auto_preference[i].variant);
		if (!v->usable || v->usable(f)) {
			*why = auto_preference[i].why;
			return v;
		}
	}
	*why = auto_preference[last].why; /* sse2 runs on every x86-64 */
	return variant_named(auto_preference[last].variant);
}

const struct variant *default_policy_variant(const struct cpu_features *f, enum base_function fn,
                                             const char **why)
{
	if (measured_row(f))
		return auto_policy_variant(f, fn, why);
	*why = "auto is not measured on this CPU class: the C library's own (memshim tune finds better)";
	return variant_named("glibc");
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
