/* Strings from a dump (program names, variants, frames) written into the
 * formats the reports produce: a dump is untrusted, so each string is
 * escaped for its format, and bytes that are not UTF-8 become U+FFFD
 * (an SVG or a JSON document with them is refused by its parser), or '?'
 * on a terminal. */
#ifndef MEMSHIM_TOOLS_UTIL_ESCAPE_H
#define MEMSHIM_TOOLS_UTIL_ESCAPE_H

#include <stdio.h>

enum escape_format {
	ESCAPE_XML,    /* text or an attribute's value: & < > " ' as entities, control bytes dropped */
	ESCAPE_JSON,   /* inside a string's quotes: " \ and control bytes escaped */
	ESCAPE_FOLDED, /* a folded stack's frame: ';' (the separator) as '_' */
	ESCAPE_TEXT,   /* the text report, read on a terminal: a control character (C0, DEL, C1: an
	                  escape sequence could rewrite the screen) or a byte of invalid UTF-8 as '?',
	                  byte for byte, so that a column's width stays what strlen says */
};

void write_escaped(FILE *out, const char *s, enum escape_format format);

#endif
