/* Byte counts as people write them: "4096", "64K", "4M". */
#ifndef MEMSHIM_BYTE_COUNT_H
#define MEMSHIM_BYTE_COUNT_H

/* Parses a byte count: decimal digits with an optional K, M, G or T suffix
 * (powers of 1024), at most `max`.  Returns NULL on success, else what is
 * wrong with the text ("is empty", "is not a number", ...). */
const char *parse_byte_count(const char *text, unsigned long long max, unsigned long long *out);

#endif
