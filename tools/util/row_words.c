#include "tools/util/row_words.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Whether text holds a reason of row r. */
static bool holds_reason(const struct cpu_row *r, const char *text)
{
	for (int fn = 0; fn < FN_COUNT; fn++)
		if (r->why[fn] && strstr(text, r->why[fn]))
			return true;
	return false;
}

const char *row_words_truth(const struct cpu_row *r, const char *text, char *out, size_t size)
{
	if (!r || !strstr(r->measured, ROW_TEXT_FROM_BENCH) || strstr(r->measured, ROW_TEXT_EVERY_PLACEMENT) ||
	    strstr(r->measured, ROW_TEXT_FOUR_PLACEMENTS) ||
	    !holds_reason(r, text))
		return text;
	const char *at = strstr(text, ROW_TEXT_WORST_PLACEMENT);
	if (!at)
		return text;
	snprintf(out, size, "%.*s%s%s", (int)(at - text), text, ROW_TEXT_ONE_PLACEMENT,
		 at + strlen(ROW_TEXT_WORST_PLACEMENT));
	return out;
}

void row_words_one_placement(char *why, size_t size)
{
	char *at = strstr(why, ROW_TEXT_WORST_PLACEMENT);
	if (!at)
		return;
	size_t room = size - (size_t)(at - why);
	snprintf(at, room, "%s", strlen(ROW_TEXT_ONE_PLACEMENT) < room ? ROW_TEXT_ONE_PLACEMENT : "");
}
