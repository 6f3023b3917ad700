/* The calibration file's part for the library: this machine's thresholds
 * for the auto policy, written by `memshim tune --calibrate` and read here
 * by the resolvers at start-up, before the C library may be used.
 *
 * The library reads the file's first five lines, which must fit in
 * CALIBRATION_HEAD bytes (what follows is memshim tune's cost curves):
 *
 *   memshim-calibration 1
 *   cpu AuthenticAMD 25 17        vendor, family, model it was measured on
 *   auto_movsb 4096               MEMSHIM_AUTO_MOVSB_THRESHOLD's value
 *   auto_stosb 2048               MEMSHIM_AUTO_STOSB_THRESHOLD's value
 *   nt 25165824                   MEMSHIM_NT_THRESHOLD's value */
#ifndef MEMSHIM_CALIBRATION_H
#define MEMSHIM_CALIBRATION_H

#include "dispatch/thresholds.h"

#include <stdbool.h>
#include <stddef.h>

#define CALIBRATION_FORMAT "memshim-calibration 1"
#define CALIBRATION_HEAD 512

/* The file to read: MEMSHIM_CONFIG if set (*named true), else
 * $XDG_CACHE_HOME/memshim/calibration, else $HOME/.cache/memshim/calibration.
 * False when there is none (no variable gives a path, or it is too long). */
bool calibration_path(char *path, size_t size, bool *named);

/* Sets t's auto_movsb, auto_stosb and nt from the file.  A missing file is
 * reported only when `named`; a malformed one, or one measured on another
 * CPU, in one line.  False (and t untouched) when nothing was applied. */
bool calibration_apply(const char *path, bool named, struct thresholds *t);

#endif
