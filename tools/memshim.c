/* memshim: the command-line tool.  The table of its commands, one file each
 * at the top of tools/ (their machinery in a folder of their own, what two
 * of them share in tools/util/); each takes --help. */
#include "config.h"

#include "tools/commands.h"
#include "tools/util/cli.h"

#include <stdbool.h>
#include <stddef.h>

/* The library's configuration reads no recording variables in this
 * process (dispatch/config.c): they are for the programs it runs. */
extern const bool memshim_tool_process;
const bool memshim_tool_process = true;

static const struct cli_command commands[] = {
	{ "info", cmd_info, "CPU features, variants, and what each function resolves to" },
	{ "run", cmd_run, "run a program with the library preloaded" },
	{ "report", cmd_report, "merge histogram dumps and show sizes, alignment, call sites" },
	{ "record", cmd_record, "record a command and its children, merge, and report" },
	{ "merge", cmd_merge, "add up histogram dumps into one" },
	{ "bench", cmd_bench, "time every variant against glibc's on this machine" },
	{ "ab", cmd_ab, "time a command under several settings, interleaved" },
	{ "tune", cmd_tune, "predict the best variant and thresholds for recorded histograms" },
	{ "cpu-row", cmd_cpu_row, "write a CPU row: the default's size bands for this CPU class, measured" },
	{ NULL, NULL, NULL },
};

int main(int argc, char **argv)
{
	return cli_main(argc, argv, commands);
}
