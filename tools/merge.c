/* memshim merge: many dumps into one file. */
#include "tools/commands.h"
#include "tools/util/cli.h"
#include "tools/util/cli_options.h"
#include "dump/reader/merge.h"

#include <stdio.h>

static const char merge_help[] =
	"usage: memshim merge -o|--output OUT FILE|DIR...\n"
	"Adds up histogram dumps (a directory stands for every dump in it) into one\n"
	"dump, OUT, with one section per program, which memshim report and tune read\n"
	"like the dumps it adds up.  OUT must not exist: merge never replaces a file\n"
	"(it is written to OUT.tmp, then named OUT).  A dump that cannot be read is\n"
	"named, and then nothing is written: the exit status is 1, as when OUT cannot\n"
	"be written.\n";

static int apply_merge_option(void *context, int id, const char *name, const char *value)
{
	(void)id;
	if (!value[0])
		return cli_usage_error("merge", "%s needs a file name", name);
	*(const char **)context = value;
	return 0;
}

int cmd_merge(int argc, char **argv)
{
	if (cli_wants_help(argc, argv, merge_help, false))
		return 0;
	static const struct option options[] = { { "output", required_argument, NULL, 'o' }, { 0 } };
	const struct cli_syntax syntax = { "merge", options, false };
	const char *out = NULL;
	int first, rc = cli_parse_options(argc, argv, &syntax, apply_merge_option, &out, &first);
	if (rc)
		return rc;
	if (!out || first >= argc)
		return cli_usage_error("merge", "needs -o OUT and at least one dump");
	struct dump_inputs in;
	bool written;
	rc = dump_merge_files("merge", out, argv + first, (size_t)(argc - first), true, &in, &written);
	dump_inputs_free(&in);
	return rc;
}
