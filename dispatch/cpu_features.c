/* CPU feature detection with <cpuid.h>.
 *
 * The bit positions are from the Intel SDM and AMD APM, CPUID leaf 7
 * (structured extended features) and leaf 7 subleaf 1.  Vector features
 * count only when XGETBV says the OS saves that register state: a CPU with
 * AVX-512 under a kernel that does not enable it must not be offered
 * AVX-512 code (it would fault).  MEMSHIM_HWCAPS may then hide more
 * (dispatch/hwcaps.c), never add. */
#include "dispatch/cpu_features.h"

#include "dispatch/early_env.h"
#include "dispatch/message.h"

#include <cpuid.h>
#include <stdint.h>

/* XCR0 bits: SSE (1), AVX upper halves (2), opmask (5), ZMM0-15 upper (6), ZMM16-31 (7). */
#define XCR0_YMM_STATE 0x06u
#define XCR0_ZMM_STATE 0xe6u

static uint64_t read_xcr0(void)
{
	uint32_t lo, hi;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

static bool bit(unsigned reg, unsigned n) { return (reg >> n) & 1u; }

/* CPUID leaf 0 (vendor; returns the highest standard leaf) and leaf 1's
 * EAX (family and model).  Each CPUID is a trap to the hypervisor in a
 * virtual machine, microseconds in every process's start-up, so each leaf
 * is asked once. */
static unsigned read_vendor(struct cpu_features *f)
{
	unsigned max_leaf, ebx, ecx, edx;
	__cpuid(0, max_leaf, ebx, ecx, edx);
	unsigned words[3] = { ebx, edx, ecx };
	for (int i = 0; i < 12; i++)
		f->vendor[i] = (char)(words[i / 4] >> (8 * (i % 4)));
	f->vendor[12] = '\0';
	return max_leaf;
}

static void read_model(struct cpu_features *f, unsigned leaf1_eax)
{
	unsigned base_family = (leaf1_eax >> 8) & 0xf, base_model = (leaf1_eax >> 4) & 0xf;
	f->family = base_family == 0xf ? base_family + ((leaf1_eax >> 20) & 0xff) : base_family;
	f->model = base_family >= 0x6 ? base_model | (((leaf1_eax >> 16) & 0xf) << 4) : base_model;
}

static void read_extended_features(struct cpu_features *f, unsigned leaf1_ecx, unsigned max_leaf)
{
	unsigned eax, ebx, ecx, edx;
	bool os_saves_vectors = bit(leaf1_ecx, 27) /* OSXSAVE */ && bit(leaf1_ecx, 28) /* AVX */;
	uint64_t xcr0 = os_saves_vectors ? read_xcr0() : 0;
	bool ymm_ok = (xcr0 & XCR0_YMM_STATE) == XCR0_YMM_STATE;
	bool zmm_ok = (xcr0 & XCR0_ZMM_STATE) == XCR0_ZMM_STATE;

	if (max_leaf < 7)
		return;
	unsigned max_subleaf;
	__cpuid_count(7, 0, max_subleaf, ebx, ecx, edx);
	f->erms = bit(ebx, 9);
	f->fsrm = bit(edx, 4);
	f->avx2 = ymm_ok && bit(ebx, 5);
	f->avx512f = zmm_ok && bit(ebx, 16);
	f->avx512bw = zmm_ok && bit(ebx, 30);
	f->avx512vl = zmm_ok && bit(ebx, 31);
	f->bmi2 = bit(ebx, 8);
	if (max_subleaf >= 1) {
		__cpuid_count(7, 1, eax, ebx, ecx, edx);
		f->fzrm = bit(eax, 10);
		f->fsrs = bit(eax, 11);
		f->fsrc = bit(eax, 12);
	}
}

/* Deterministic cache parameters, one subleaf per cache: Intel's leaf 4 and
 * AMD's 0x8000001D (same layout).  These give the cache one core shares
 * (one L3 slice or CCX), which is what a non-temporal threshold needs. */
static void read_caches_by_leaf(struct cpu_features *f, unsigned leaf)
{
	for (unsigned i = 0; i < 16; i++) {
		unsigned eax, ebx, ecx, edx;
		__cpuid_count(leaf, i, eax, ebx, ecx, edx);
		unsigned type = eax & 0x1f, level = (eax >> 5) & 0x7;
		if (type == 0)
			break;
		if (type == 2) /* instruction cache */
			continue;
		size_t bytes = (size_t)(((ebx >> 22) & 0x3ff) + 1) * (((ebx >> 12) & 0x3ff) + 1) *
		               ((ebx & 0xfff) + 1) * ((size_t)ecx + 1);
		if (level == 1) f->l1d_bytes = bytes;
		if (level == 2) f->l2_bytes = bytes;
		if (level == 3) {
			f->l3_bytes = bytes;
			break; /* nothing after the L3 is used */
		}
	}
}

/* AMD: the cache topology leaf where the CPU has it (TOPOEXT); else L1D in
 * 0x80000005 ECX[31:24] KiB, L2 in 0x80000006 ECX[31:16] KiB and L3 in
 * 0x80000006 EDX[31:18] in 512 KiB units (the whole package's L3). */
static void read_caches_amd(struct cpu_features *f)
{
	unsigned eax, ebx, ecx, edx;
	unsigned max_extended = __get_cpuid_max(0x80000000, 0);
	__cpuid(0x80000001, eax, ebx, ecx, edx);
	if (max_extended >= 0x8000001d && bit(ecx, 22)) {
		read_caches_by_leaf(f, 0x8000001d);
		return;
	}
	if (max_extended < 0x80000006)
		return;
	__cpuid(0x80000005, eax, ebx, ecx, edx);
	f->l1d_bytes = (size_t)(ecx >> 24) << 10;
	__cpuid(0x80000006, eax, ebx, ecx, edx);
	f->l2_bytes = (size_t)(ecx >> 16) << 10;
	f->l3_bytes = (size_t)(edx >> 18) << 19;
}

static bool same_vendor(const char *a, const char *b)
{
	for (; *a && *a == *b; a++, b++)
		;
	return *a == *b;
}

static void detect(struct cpu_features *f)
{
	unsigned max_leaf = read_vendor(f), eax, ebx, ecx, edx;
	__cpuid(1, eax, ebx, ecx, edx);
	read_model(f, eax);
	read_extended_features(f, ecx, max_leaf);
	if (same_vendor(f->vendor, "AuthenticAMD") || same_vendor(f->vendor, "HygonGenuine"))
		read_caches_amd(f);
	else if (max_leaf >= 4)
		read_caches_by_leaf(f, 4);
}

static struct cpu_features detected, features;
static const char *applied_mask;

static void read_features(void)
{
	detect(&detected);
	features = detected;
	const char *mask = early_getenv("MEMSHIM_HWCAPS");
	struct line why;
	const char *problem = mask ? cpu_features_hide(mask, &features, &why) : NULL;
	if (problem)
		warn_bad_value("MEMSHIM_HWCAPS", mask, problem, "every feature the CPU has", 0);
	else
		applied_mask = mask;
}

const struct cpu_features *cpu_features(void)
{
	/* 0: unread, 1: being read, 2: ready.  Resolvers of lazily bound calls
	 * can run in several threads at once: one reads (and reports a bad
	 * mask, once), the others wait for its answer. */
	static int state;
	int expected = 0;
	if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == 2)
		return &features;
	if (__atomic_compare_exchange_n(&state, &expected, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
		read_features();
		__atomic_store_n(&state, 2, __ATOMIC_RELEASE);
	}
	while (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != 2)
		__builtin_ia32_pause();
	return &features;
}

const struct cpu_features *cpu_features_detected(void)
{
	cpu_features();
	return &detected;
}

const char *cpu_features_mask(void)
{
	cpu_features();
	return applied_mask;
}
