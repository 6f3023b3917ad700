/* Byte counts in the text of variables, band lists and files, read without
 * the C library (dispatch/byte_count.h). */
#include "dispatch/byte_count.h"

#include <stddef.h>

const char *parse_byte_count(const char *text, unsigned long long max, unsigned long long *out)
{
	if (*text == '\0')
		return "is empty";
	if (*text == '-')
		return "is negative";
	unsigned long long n = 0;
	const char *p = text;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (n > (~0ull - 9) / 10)
			return "is too large";
		n = n * 10 + (unsigned)(*p - '0');
	}
	if (p == text)
		return "is not a number of bytes";
	unsigned shift = 0;
	switch (*p) {
	case 'k': case 'K': shift = 10; p++; break;
	case 'm': case 'M': shift = 20; p++; break;
	case 'g': case 'G': shift = 30; p++; break;
	case 't': case 'T': shift = 40; p++; break;
	}
	if (*p != '\0')
		return "is not a number of bytes (digits, then K, M, G or T at most)";
	if (shift && n > (max >> shift))
		return "is too large";
	n <<= shift;
	if (n > max)
		return "is too large";
	*out = n;
	return NULL;
}
