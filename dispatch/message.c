#include "dispatch/message.h"

#include "dispatch/early_env.h"
#include "dispatch/raw_syscall.h"

#include <sys/syscall.h>

/* Room kept at the end for "...\n", so a cut line still ends visibly. */
#define LINE_CAP (sizeof ((struct line *)0)->text - 4)

void line_start(struct line *l)
{
	l->len = 0;
	l->cut = 0;
}

void line_add_char(struct line *l, char c)
{
	if (l->len < LINE_CAP)
		l->text[l->len++] = c;
	else
		l->cut = 1;
}

void line_add(struct line *l, const char *s)
{
	while (*s)
		line_add_char(l, *s++);
}

void line_add_quoted(struct line *l, const char *s, size_t max_chars)
{
	line_add_char(l, '"');
	size_t n = 0;
	for (; s[n] && n < max_chars; n++)
		line_add_char(l, s[n] >= 0x20 && s[n] < 0x7f ? s[n] : '?');
	if (s[n])
		line_add(l, "...");
	line_add_char(l, '"');
}

size_t format_decimal(unsigned long long n, char out[20])
{
	char reversed[20];
	size_t len = 0;
	do
		reversed[len++] = (char)('0' + n % 10);
	while ((n /= 10) != 0);
	for (size_t i = 0; i < len; i++)
		out[i] = reversed[len - 1 - i];
	return len;
}

void line_add_number(struct line *l, unsigned long long n)
{
	char digits[20];
	size_t len = format_decimal(n, digits);
	for (size_t i = 0; i < len; i++)
		line_add_char(l, digits[i]);
}

void line_add_hex(struct line *l, unsigned long long n)
{
	char digits[16];
	int i = 0;
	do
		digits[i++] = "0123456789abcdef"[n & 15];
	while ((n >>= 4) != 0);
	while (i > 0)
		line_add_char(l, digits[--i]);
}

void line_emit(struct line *l)
{
	struct line out;
	line_start(&out);
	line_add(&out, "memshim: ");
	for (size_t i = 0; i < l->len; i++)
		line_add_char(&out, l->text[i]);
	if (l->cut || out.cut)
		for (const char *dots = "..."; *dots; dots++)
			out.text[out.len++] = *dots;
	out.text[out.len++] = '\n';
	raw_syscall3(SYS_write, 2, (long)out.text, (long)out.len);
}

void line_add_bytes(struct line *l, unsigned long long n)
{
	static const char *const units[] = { " GiB", " MiB", " KiB" };
	for (unsigned i = 0; n && i < 3; i++) {
		unsigned shift = 30 - 10 * i;
		if (n % (1ull << shift) == 0) {
			line_add_number(l, n >> shift);
			line_add(l, units[i]);
			return;
		}
	}
	line_add_number(l, n);
	line_add(l, " B");
}

/* "MEMSHIM_X="value" <problem>; using <fallback>" */
/* The names of the variables this process reported, space-separated. */
static char warned[512];
static size_t warned_len;

const char *warned_variables(void) { return warned; }

/* Whether name is a word of the space- or comma-separated list. */
static int listed(const char *list, const char *name)
{
	while (list && *list) {
		size_t i = 0;
		while (name[i] && list[i] == name[i])
			i++;
		if (!name[i] && (list[i] == '\0' || list[i] == ' ' || list[i] == ','))
			return 1;
		while (*list && *list != ' ' && *list != ',')
			list++;
		while (*list == ' ' || *list == ',')
			list++;
	}
	return 0;
}

static void remember_warned(const char *name)
{
	for (const char *s = warned_len ? " " : ""; *s && warned_len + 1 < sizeof warned; s++)
		warned[warned_len++] = *s;
	for (; *name && warned_len + 1 < sizeof warned; name++)
		warned[warned_len++] = *name;
	warned[warned_len] = '\0';
}

/* Whether nothing was said of variable `name` yet in this run: not by
 * this process (two settings may read one variable), nor by memshim record
 * or run, once for the whole run.  Remembers it. */
static bool first_word_on(const char *name)
{
	if (listed(early_getenv("MEMSHIM_WARNED"), name) || listed(warned, name))
		return false;
	remember_warned(name);
	return true;
}

void warn_bad_value(const char *name, const char *value, const char *problem,
                    const char *fallback_text, unsigned long long fallback_number)
{
	if (!first_word_on(name))
		return;
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

void warn_old_name(const char *old_name, const char *name, bool name_set)
{
	if (!first_word_on(old_name))
		return;
	struct line l;
	line_start(&l);
	line_add(&l, old_name);
	line_add(&l, name_set ? " is ignored: it is the old name of " : " is read as ");
	line_add(&l, name);
	line_add(&l, name_set ? ", which is set" : ", its new name");
	line_emit(&l);
}

void warn_retired(const char *name, const char *nearest)
{
	if (!first_word_on(name))
		return;
	struct line l;
	line_start(&l);
	line_add(&l, name);
	line_add(&l, " was retired (doc/variants.md); using ");
	line_add(&l, nearest);
	line_add(&l, ", the nearest variant");
	line_emit(&l);
}
