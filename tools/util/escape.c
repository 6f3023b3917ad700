/* Escaping dump strings for XML, JSON, folded stacks and the terminal,
 * with invalid UTF-8 replaced. */
#include "tools/util/escape.h"

#include <stdbool.h>
#include <stddef.h>

/* The length of the well-formed UTF-8 sequence at s (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), or 0. */
static size_t utf8_length(const unsigned char *s)
{
	unsigned char c = s[0];
	size_t n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	if (n < 2)
		return n;
	/* the second byte's range narrows for the lead bytes that could
	 * start an overlong form, a surrogate or a code point too large */
	unsigned char lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
	unsigned char hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* One ASCII byte, as the format needs it. */
static void write_ascii(FILE *out, unsigned char c, enum escape_format format)
{
	static const char *const xml[128] = {
		['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;", ['\''] = "&apos;",
	};
	if (format == ESCAPE_XML && xml[c])
		fputs(xml[c], out);
	else if (format == ESCAPE_XML && c < 0x20 && c != '\t')
		return; /* XML 1.0 allows no other control character, escaped or not */
	else if (format == ESCAPE_JSON && (c == '"' || c == '\\'))
		fprintf(out, "\\%c", c);
	else if (format == ESCAPE_JSON && c < 0x20)
		fprintf(out, "\\u%04x", c);
	else if (format == ESCAPE_FOLDED && c == ';')
		putc('_', out);
	else if (format == ESCAPE_TEXT && (c < 0x20 || c == 0x7f))
		putc('?', out);
	else
		putc(c, out);
}

void write_escaped(FILE *out, const char *s, enum escape_format format)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t n = utf8_length(p);
		/* U+0080..U+009F, the C1 controls, are 0xc2 0x80..0x9f */
		bool c1 = n == 2 && p[0] == 0xc2 && p[1] <= 0x9f;
		if (n == 1)
			write_ascii(out, *p, format);
		else if (format == ESCAPE_TEXT && (n == 0 || c1))
			fputs(c1 ? "??" : "?", out);
		else if (n > 1)
			fwrite(p, 1, n, out);
		else
			fputs(format == ESCAPE_JSON ? "\\ufffd" : "\xef\xbf\xbd", out);
		p += n ? n : 1;
	}
}
