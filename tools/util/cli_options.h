/* The option parsing every memshim subcommand shares, on getopt_long:
 * --name=value and --name value alike, any unique prefix of a name, and
 * one-letter forms (-o DIR, -oDIR, -o=DIR). */
#ifndef MEMSHIM_CLI_OPTIONS_H
#define MEMSHIM_CLI_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>

/* Exit statuses of every subcommand (memshim(1), EXIT STATUS). */
enum { CLI_OK = 0, CLI_FAILED = 1, CLI_USAGE = 2 };

/* Applies one option.  id is its struct option's val, name its full
 * spelling ("--impl", even when abbreviated), value its argument (NULL for
 * an option that takes none).  Returns 0, or the exit status to stop with,
 * after printing one line that says why. */
typedef int cli_apply_fn(void *context, int id, const char *name, const char *value);

struct cli_syntax {
	const char *command;          /* "run": messages start "memshim run: " */
	/* Ended by a zero entry; .flag NULL, .val the id.  An option whose id
	 * is a lower-case letter has that one-letter form too ('o': -o). */
	const struct option *options;
	/* run, ab: OPTIONS -- COMMAND ARGS...: options end at "--", and a word
	 * before it is an error (else options and operands may mix). */
	bool command_follows;
};

/* Parses argv[1..], calling apply for each option in order.  Returns 0 and
 * sets *operands to the index of the first operand (operands follow the
 * options in argv afterwards); or CLI_USAGE after one line on stderr for a
 * usage error; or what apply returned. */
int cli_parse_options(int argc, char **argv, const struct cli_syntax *syntax, cli_apply_fn *apply,
                      void *context, int *operands);

/* Prints "memshim COMMAND: MESSAGE (see memshim COMMAND --help)" and
 * returns CLI_USAGE. */
int cli_usage_error(const char *command, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Whether value is a whole number from lo to hi (decimal digits only); if
 * so, stores it in *out. */
bool cli_whole_number(const char *value, long lo, long hi, unsigned *out);

#endif
