#include "config.h"

#include "tools/util/cli_options.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_usage_error(const char *command, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	fprintf(stderr, "memshim %s: ", command);
	vfprintf(stderr, format, args);
	fprintf(stderr, " (see memshim %s --help)\n", command);
	va_end(args);
	return CLI_USAGE;
}

bool cli_whole_number(const char *value, long lo, long hi, unsigned *out)
{
	char *end;
	errno = 0;
	long n = value[0] >= '0' && value[0] <= '9' ? strtol(value, &end, 10) : -1;
	if (n < lo || n > hi || errno || *end)
		return false;
	*out = (unsigned)n;
	return true;
}

static const struct option *option_with_id(const struct option *options, int id)
{
	for (const struct option *o = options; o->name; o++)
		if (o->val == id)
			return o;
	return NULL;
}

/* How many options the len bytes of name abbreviate (an exact name counts
 * alone); *match is one of them. */
static unsigned options_matching(const struct option *options, const char *name, size_t len,
                                 const struct option **match)
{
	unsigned count = 0;
	for (const struct option *o = options; o->name; o++)
		if (strncmp(o->name, name, len) == 0) {
			*match = o;
			if (strlen(o->name) == len)
				return 1;
			count++;
		}
	return count;
}

/* getopt_long refused `word` (the word before argv[optind]); say why in our
 * words.  (Its own messages are off: they would not name the subcommand.)
 * It sets optopt to the id of a long option given a value it does not take,
 * to the letter of an unknown short option, else to 0. */
static int refused(const struct cli_syntax *s, const char *word, int optopt_value)
{
	bool long_word = word[0] == '-' && word[1] == '-';
	if (optopt_value && !(long_word && strchr(word, '=') && option_with_id(s->options, optopt_value)))
		return cli_usage_error(s->command, "unknown option -%c", optopt_value);
	const char *name = word + 2;
	size_t len = strcspn(name, "=");
	const struct option *match = NULL;
	unsigned count = options_matching(s->options, name, len, &match);
	if (count > 1)
		return cli_usage_error(s->command, "option --%.*s is ambiguous (--%s or another)", (int)len, name,
		                       match->name);
	if (count == 1 && name[len] == '=')
		return cli_usage_error(s->command, "--%s takes no value", match->name);
	return cli_usage_error(s->command, "unknown option %s", word);
}

/* For run and ab: the command must come after "--". */
static int check_command(const struct cli_syntax *s, int argc, char **argv, int first)
{
	if (first >= argc)
		return cli_usage_error(s->command, "no command given after --");
	if (strcmp(argv[first - 1], "--") != 0)
		return cli_usage_error(s->command, "\"%s\" is not an option; put -- before the command", argv[first]);
	return 0;
}

/* getopt's string: "+" to stop at the first operand, which begins the
 * command (run, ab); ":" to report a missing value as such, not as an
 * unknown option; then the letters of the options that have one. */
static void letters(const struct cli_syntax *s, char *out, size_t size)
{
	size_t len = (size_t)snprintf(out, size, "%s", s->command_follows ? "+:" : ":");
	for (const struct option *o = s->options; o->name && len + 4 < size; o++)
		if (o->val >= 'a' && o->val <= 'z')
			len += (size_t)snprintf(out + len, size - len, "%c%s", o->val,
			                        o->has_arg == required_argument ? ":" : o->has_arg ? "::" : "");
}

/* The option getopt_long returned (c), and the word it was given as. */
static const struct option *option_given(const struct cli_syntax *s, int c, int index, const char *word)
{
	const struct option *o = NULL;
	if (index >= 0)
		return &s->options[index];
	if (c != ':') /* a letter */
		return option_with_id(s->options, c);
	/* a missing value: getopt_long gives no index; the word is the option */
	if (word[0] == '-' && word[1] == '-')
		options_matching(s->options, word + 2, strlen(word + 2), &o);
	else
		o = option_with_id(s->options, optopt);
	return o;
}

int cli_parse_options(int argc, char **argv, const struct cli_syntax *s, cli_apply_fn *apply, void *context,
                      int *operands)
{
	char short_options[64];
	letters(s, short_options, sizeof short_options);
	opterr = 0;
	optind = 0; /* glibc: start afresh */
	int index, c;
	while ((index = -1, c = getopt_long(argc, argv, short_options, s->options, &index)) != -1) {
		if (c == '?')
			return refused(s, argv[optind - 1], optopt);
		const char *word = argv[optind - 1];
		const struct option *o = option_given(s, c, index, word);
		if (!o)
			return cli_usage_error(s->command, "unknown option %s", word);
		/* "--impl -- CMD": that "--" ends the options; it is no value */
		if (c == ':' || (o->has_arg && optarg && strcmp(optarg, "--") == 0))
			return cli_usage_error(s->command, "--%s needs a value", o->name);
		/* -o=DIR as --output=DIR */
		const char *value = o->has_arg ? optarg : NULL;
		if (index < 0 && value && value[0] == '=' && word[0] == '-' && word[1] != '-')
			value++;
		char name[64];
		snprintf(name, sizeof name, "--%s", o->name);
		int rc = apply(context, o->val, name, value);
		if (rc)
			return rc;
	}
	*operands = optind;
	return s->command_follows ? check_command(s, argc, argv, optind) : 0;
}
