/* The size thresholds the erms variant reads on every call.  Written once by
 * the configuration (dispatch/config.c) before any resolver hands out a
 * function that reads them. */
#ifndef MEMSHIM_THRESHOLDS_H
#define MEMSHIM_THRESHOLDS_H

#include <stddef.h>

#define ERMS_THRESHOLD_DEFAULT 2048  /* the kernel's ERMS-without-FSRM patch (seed 001) */
#define STOSB_THRESHOLD_DEFAULT 2048

struct thresholds {
	size_t erms;  /* memcpy/memmove: rep movsb from this size on */
	size_t stosb; /* memset: rep stosb from this size on */
};

extern struct thresholds memshim_thresholds __attribute__((visibility("hidden")));

#endif
