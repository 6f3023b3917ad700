/* Whole numbers from untrusted files: digits only, checked for overflow. */
#include "tools/util/parse_number.h"

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
