/* Size bands: parsing and writing their text form (dispatch/bands.h). */
#include "dispatch/bands.h"

#include "dispatch/byte_count.h"
#include "dispatch/early_env.h"
#include "dispatch/message.h"

#include <stdint.h>

/* Bounds beyond this are typos: a band that ends past 1 TiB never ends. */
#define BAND_BOUND_MAX (1ull << 40)

struct band_list band_list_single(const struct variant *v)
{
	struct band_list b;
	b.count = 1;
	b.upper[0] = SIZE_MAX;
	b.variant[0] = v;
	return b;
}

bool band_text_is_list(const char *text)
{
	for (; *text; text++)
		if (*text == ':' || *text == ',')
			return true;
	return false;
}

/* Copies text[0..len) into out (size bytes); false if it does not fit. */
static bool take(const char *text, size_t len, char *out, size_t size)
{
	if (len + 1 > size)
		return false;
	for (size_t i = 0; i < len; i++)
		out[i] = text[i];
	out[len] = '\0';
	return true;
}

/* One "VARIANT" or "VARIANT:BOUND" item of len bytes into band i. */
static const char *parse_item(const char *item, size_t len, bool last, const struct cpu_features *f,
                              struct band_list *out, unsigned i)
{
	char name[32], bound[24];
	size_t colon = 0;
	while (colon < len && item[colon] != ':')
		colon++;
	if (!take(item, colon, name, sizeof name) || !name[0])
		return "names no variant in one of its bands (VARIANT:BOUND,...,VARIANT)";
	const struct variant *v = variant_setting_named(name);
	if (!v)
		return "names a band variant that does not exist (see `memshim info`)";
	if (!variant_usable_on(v, f))
		return "names a band variant this CPU or C library cannot run";
	out->variant[i] = v;
	if (colon == len && last) {
		out->upper[i] = SIZE_MAX;
		return NULL;
	}
	if (colon == len)
		return "has a band without a size bound (VARIANT:BYTES, bytes with K, M or G)";
	unsigned long long n;
	if (!take(item + colon + 1, len - colon - 1, bound, sizeof bound) || parse_byte_count(bound, BAND_BOUND_MAX, &n))
		return "has a band bound that is not a byte count (VARIANT:BYTES, bytes with K, M or G, up to 1T)";
	/* a band serves the sizes up to its bound: 0 would serve only empty calls, a slip for "from 0" */
	if (n == 0)
		return "has a band bound of 0 (a band serves sizes up to its bound; the first variant serves from 0)";
	if (last)
		return "gives its last band a bound (the last variant serves every larger size)";
	if (i > 0 && n <= out->upper[i - 1])
		return "has band bounds that do not ascend";
	out->upper[i] = (size_t)n;
	return NULL;
}

const char *band_list_parse(const char *text, struct band_list *out)
{
	return band_list_parse_on(text, cpu_features(), out);
}

const char *band_list_parse_on(const char *text, const struct cpu_features *f, struct band_list *out)
{
	unsigned count = 1;
	for (const char *p = text; *p; p++)
		count += *p == ',';
	if (count > MAX_BANDS)
		return "has more than 10 bands";
	const char *item = text;
	for (unsigned i = 0; i < count; i++) {
		size_t len = 0;
		while (item[len] && item[len] != ',')
			len++;
		const char *problem = parse_item(item, len, i + 1 == count, f, out, i);
		if (problem)
			return problem;
		item += len + 1;
	}
	out->count = count;
	return NULL;
}

/* Appends s at out[*len], cut to BAND_TEXT_MAX. */
static void append(char out[BAND_TEXT_MAX], size_t *len, const char *s)
{
	for (; *s && *len + 1 < BAND_TEXT_MAX; s++)
		out[(*len)++] = *s;
	out[*len] = '\0';
}

/* n as "4M", "64K" or "300": the largest unit that divides it. */
static void append_bytes(char out[BAND_TEXT_MAX], size_t *len, size_t n)
{
	static const char units[] = { 'G', 'M', 'K' };
	const char *suffix = "";
	char unit[2] = { 0, 0 };
	for (unsigned i = 0; n && i < sizeof units; i++) {
		unsigned shift = 30 - 10 * i;
		if (n % ((size_t)1 << shift) == 0) {
			n >>= shift;
			unit[0] = units[i];
			suffix = unit;
			break;
		}
	}
	char digits[21];
	digits[format_decimal(n, digits)] = '\0';
	append(out, len, digits);
	append(out, len, suffix);
}

void band_list_format(const struct band_list *b, char out[BAND_TEXT_MAX])
{
	size_t len = 0;
	out[0] = '\0';
	for (unsigned i = 0; i < b->count; i++) {
		append(out, &len, i ? "," : "");
		append(out, &len, b->variant[i]->name);
		if (i + 1 == b->count)
			break;
		append(out, &len, ":");
		append_bytes(out, &len, b->upper[i]);
	}
}
