/* Parsing the values of the MEMSHIM_* variables, and the one-line message
 * for a bad one, without the C library (dispatch/config_internal.h). */
#include "dispatch/config_internal.h"

/* "MEMSHIM_X="value" <problem>; using <fallback>" */
void warn_bad_value(const char *name, const char *value, const char *problem,
                           const char *fallback_text, unsigned long long fallback_number)
{
	struct line l;
	line_start(&l);
	line_add(&l, name);
	line_add(&l, "=");
	line_add_quoted(&l, value, 64);
	line_add(&l, " ");
	line_add(&l, problem);
	line_add(&l, "; using ");
	if (fallback_text)
		line_add(&l, fallback_text);
	else
		line_add_number(&l, fallback_number);
	line_emit(&l);
}

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
