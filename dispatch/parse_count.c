/* Parsing the whole numbers of the MEMSHIM_* variables, without the C
 * library (dispatch/config_internal.h). */
#include "dispatch/config_internal.h"

/* A whole number in [min, max] from decimal digits only, or NULL and the
 * problem, in words that fit any unit (max far below ULLONG_MAX / 10, so
 * that no step can overflow). */
const char *parse_count(const char *text, unsigned long long min, unsigned long long max,
                               unsigned long long *out)
{
	unsigned long long n = 0;
	const char *p = text;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((n = n * 10 + (unsigned)(*p - '0')) > max)
			return "is too large";
	if (p == text || *p)
		return "is not a whole number";
	if (n < min)
		return "is too small";
	*out = n;
	return NULL;
}
