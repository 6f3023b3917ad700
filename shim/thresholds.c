/* The thresholds the variants read (shim/thresholds.h): defined here, with
 * the variants, and set by the configuration before any resolver hands one
 * out (dispatch/config.c). */
#include "shim/thresholds.h"

struct thresholds memshim_thresholds = { .erms = ERMS_THRESHOLD_DEFAULT, .stosb = STOSB_THRESHOLD_DEFAULT };
