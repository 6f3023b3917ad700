/* memshim run: a program with the library preloaded. */
#include "config.h"

#include "tools/commands.h"
#include "tools/util/cli.h"
#include "tools/util/cli_options.h"
#include "tools/util/launch.h"

static const char run_help[] =
	"usage: memshim run [OPTIONS] -- COMMAND [ARGS...]\n"
	"Runs COMMAND with libmemshim.so preloaded (after any LD_PRELOAD already set).\n"
	"Options set the matching MEMSHIM_* variables:\n"
	"  --impl VARIANT          MEMSHIM_IMPL: the variant (or preset: kernel, default,\n"
	"                          or size bands: glibc:256,avx2) for every function\n"
	"  --movsb-threshold BYTES MEMSHIM_MOVSB_THRESHOLD (every variant with rep\n"
	"                          movsb: from here; --erms-threshold and\n"
	"                          --auto-movsb-threshold are its old names)\n"
	"  --stosb-threshold BYTES MEMSHIM_STOSB_THRESHOLD (every variant with rep\n"
	"                          stosb: from here; old name --auto-stosb-threshold)\n"
	"  --nt-threshold BYTES    MEMSHIM_NT_THRESHOLD (vector variants: non-temporal\n"
	"                          stores from here)\n"
	"  --hwcaps LIST           MEMSHIM_HWCAPS: CPU features to hide from the choice,\n"
	"                          as on a CPU without them (-avx512f,-fsrm,-erms)\n"
	"  --verbose               MEMSHIM_VERBOSE=1: print the choice at start\n"
	"The library is $MEMSHIM_LIBRARY if set, else the installed one.  A program\n"
	"LD_PRELOAD cannot reach (static, Go without cgo) is run all the same, after\n"
	"one line that says so.\n"
	"Exit status: COMMAND's own; 126 when it cannot be run, 127 when it is not\n"
	"found; 1 when the library is not found; 2 for a usage error.\n";

int cmd_run(int argc, char **argv)
{
	if (cli_wants_help(argc, argv, run_help, true))
		return 0;
	const struct cli_syntax syntax = { "run", run_options, true };
	int first, rc = cli_parse_options(argc, argv, &syntax, apply_run_option, "run", &first);
	if (rc)
		return rc;
	return run_exec("run", argv + first);
}
