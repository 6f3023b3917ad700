/* The one parser of numbers read from files the tools did not write
 * (dumps, distribution files, calibration files, bench CSVs): digits
 * only, no sign, no spaces, no overflow (strtoull takes "-1" as 2^64-1
 * and skips leading blanks; sscanf's %u takes "-1" as 2^32-1; strtod
 * takes " -0", "nan", "inf" and "0x10"). */
#ifndef MEMSHIM_TOOLS_UTIL_PARSE_NUMBER_H
#define MEMSHIM_TOOLS_UTIL_PARSE_NUMBER_H

#include <stdbool.h>
#include <stdint.h>

/* Reads the digits at *text into *out and moves *text past them; false
 * (nothing moved) if there is no digit there or the number passes
 * UINT64_MAX. */
bool parse_u64(const char **text, uint64_t *out);

/* Reads a finite real without a sign at *text (digits, a point, an
 * exponent: "12", "0.5", "1e+06") into *out and moves *text past it;
 * false (nothing moved) if there is none or it is out of a double's
 * range. */
bool parse_real(const char **text, double *out);

/* The whole of text as a whole number no greater than max; false if any
 * other character is there. */
bool parse_u64_all(const char *text, uint64_t max, uint64_t *out);

#endif
