/* What the CPU (and the kernel, for vector state) lets the variants use.
 *
 * Read with <cpuid.h> and XGETBV; nothing here calls the C library, because
 * the resolvers that use it run while the dynamic linker is still relocating
 * the program. */
#ifndef MEMSHIM_CPU_FEATURES_H
#define MEMSHIM_CPU_FEATURES_H

#include <stdbool.h>
#include <stddef.h>

struct cpu_features {
	char vendor[13];        /* "GenuineIntel", "AuthenticAMD", ... */
	unsigned family, model; /* display family and model */
	bool erms;              /* Enhanced REP MOVSB/STOSB */
	bool fsrm;              /* Fast Short REP MOV */
	bool fzrm;              /* Fast Zero-length REP MOVSB */
	bool fsrs;              /* Fast Short REP STOSB */
	bool fsrc;              /* Fast Short REP CMPSB/SCASB */
	bool avx2;              /* AVX2, and the OS saves YMM state */
	bool avx512f, avx512bw, avx512vl; /* and the OS saves ZMM state */
	bool bmi2;              /* BZHI and friends */
	size_t l1d_bytes, l2_bytes, l3_bytes; /* per core / per cluster; 0 if unknown */
};

/* The features of the CPU this runs on, read once. */
const struct cpu_features *cpu_features(void);

#endif
