/* The thresholds the variants read (shim/thresholds.h): defined here, with
 * the variants, and set by the configuration before any resolver hands one
 * out (dispatch/config.c). */
#include "shim/thresholds.h"

/* Until the configuration sets them: rep movsb and rep stosb from 2 KiB,
 * where the kernel starts rep movsb on ERMS CPUs without FSRM. */
struct thresholds memshim_thresholds = { .movsb = 2048, .stosb = 2048 };
