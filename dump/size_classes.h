/* The one set of size classes: bench's tables and summary, the calibration
 * and the band choice, tune's check, ab's verdicts and report (text, JSON,
 * pprof) all use these, so a class named in one output is the same sizes
 * in another.  Bounds are inclusive, as band bounds are: a band list's
 * bound is a class's upper bound ("glibc:256,avx2").
 *
 * X(LO, HI, NAME) for each, ascending. */
#ifndef MEMSHIM_DUMP_SIZE_CLASSES_H
#define MEMSHIM_DUMP_SIZE_CLASSES_H

#define MEMSHIM_SIZE_CLASSES(X)                 \
	X(0, 16, "0-16 B")                      \
	X(17, 64, "17-64 B")                    \
	X(65, 256, "65-256 B")                  \
	X(257, 1024, "257 B-1 KiB")             \
	X(1025, 4096, "1-4 KiB")                \
	X(4097, 32u << 10, "4-32 KiB")          \
	X((32u << 10) + 1, 256u << 10, "32-256 KiB") \
	X((256u << 10) + 1, 4u << 20, "256 KiB-4 MiB") \
	X((4u << 20) + 1, 16u << 20, "4-16 MiB")

/* Their number, and the largest size they hold. */
#define MEMSHIM_SIZE_CLASS_ONE(lo, hi, name) +1
#define MEMSHIM_SIZE_CLASS_COUNT (0 MEMSHIM_SIZE_CLASSES(MEMSHIM_SIZE_CLASS_ONE))
#define MEMSHIM_SIZE_CLASS_TOP (16u << 20)

#endif
