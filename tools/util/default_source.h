/* Where the default variants of a program started now come from: the
 * calibration file, the shipped CPU row, or neither (glibc's own). */
#ifndef MEMSHIM_TOOLS_UTIL_DEFAULT_SOURCE_H
#define MEMSHIM_TOOLS_UTIL_DEFAULT_SOURCE_H

#include <stddef.h>

/* Writes into text, in words, the source of the default: "the calibration
 * file PATH", "the shipped CPU row FILE" or "glibc's own functions (no
 * calibration file, no row for this CPU class)".  The MEMSHIM_* variables
 * that override it are not counted: this is what they override. */
void default_source(char *text, size_t size);

#endif
