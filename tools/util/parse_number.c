/* Numbers from untrusted files: digits only, checked for overflow. */
#include "tools/util/parse_number.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool parse_u64(const char **text, uint64_t *out)
{
	const char *p = *text;
	uint64_t n = 0;
	for (; *p >= '0' && *p <= '9'; p++)
		if (__builtin_mul_overflow(n, 10, &n) || __builtin_add_overflow(n, (uint64_t)(*p - '0'), &n))
			return false;
	if (p == *text)
		return false;
	*out = n;
	*text = p;
	return true;
}

bool parse_u64_all(const char *text, uint64_t max, uint64_t *out)
{
	uint64_t n;
	if (!parse_u64(&text, &n) || *text != '\0' || n > max)
		return false;
	*out = n;
	return true;
}

bool parse_real(const char **text, double *out)
{
	const char *p = *text;
	/* strtod's own first character, and hexadecimal, are refused here:
	 * what it takes past these is a decimal real */
	if (!((*p >= '0' && *p <= '9') || *p == '.') || (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')))
		return false;
	char *end;
	errno = 0;
	double v = strtod(p, &end);
	if (end == p || errno == ERANGE || !isfinite(v))
		return false;
	*out = v;
	*text = end;
	return true;
}
