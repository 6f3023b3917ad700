/* What the CPU (and the kernel, for vector state) lets the variants use.
 *
 * Read with <cpuid.h> and XGETBV; nothing here calls the C library, because
 * the resolvers that use it run while the dynamic linker is still relocating
 * the program. */
#ifndef MEMSHIM_CPU_FEATURES_H
#define MEMSHIM_CPU_FEATURES_H

#include "dispatch/message.h"

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

/* The features of the CPU this runs on, read once, less those that
 * MEMSHIM_HWCAPS hides: what every choice (the library's, the tools') sees.
 * A bad MEMSHIM_HWCAPS is reported then, one line, and hides nothing. */
const struct cpu_features *cpu_features(void);

/* The features as the CPU and the OS report them, before any were hidden. */
const struct cpu_features *cpu_features_detected(void);

/* The MEMSHIM_HWCAPS that cpu_features() applied; NULL when unset or bad. */
const char *cpu_features_mask(void);

/* dispatch/hwcaps.c: MEMSHIM_HWCAPS's syntax, "-avx512f,-fsrm" (any case,
 * as glibc's glibc.cpu.hwcaps).  Clears in f each feature the list names
 * and every feature that needs it: erms also hides fsrm, fzrm, fsrs and
 * fsrc; avx2 also hides AVX-512; avx512f (or avx512) hides avx512bw and
 * avx512vl.  NULL on success (an empty list hides nothing); else the
 * problem, in words that follow the value and name the valid names,
 * built in *why, and f is as it was. */
const char *cpu_features_hide(const char *list, struct cpu_features *f, struct line *why);

/* Appends the names of the features `before` has and `after` lacks,
 * space-separated ("erms fsrm avx512f"). */
void cpu_features_describe_hidden(const struct cpu_features *before, const struct cpu_features *after,
                                  struct line *l);

#endif
