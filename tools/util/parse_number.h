/* The one parser of whole numbers read from files the tools did not write
 * (dumps, distribution files): decimal digits only, no sign, no spaces,
 * no overflow (strtoull takes "-1" as 2^64-1 and skips leading blanks). */
#ifndef MEMSHIM_TOOLS_UTIL_PARSE_NUMBER_H
#define MEMSHIM_TOOLS_UTIL_PARSE_NUMBER_H

#include <stdbool.h>
#include <stdint.h>

/* Reads the digits at *text into *out and moves *text past them; false
 * (nothing moved) if there is no digit there or the number passes
 * UINT64_MAX. */
bool parse_u64(const char **text, uint64_t *out);

#endif
