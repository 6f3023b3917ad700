/* libFuzzer harness for the memshim commands that read untrusted files,
 * run in process on each input as the tool runs them: the whole tool is
 * linked (tools/memshim.c's main renamed memshim_main), so that each
 * reader is fuzzed with what its command does with what it read (report's
 * modes, merge's writing, tune's prediction, cpu-row's row).
 *
 * FUZZ_ARGS names the command line, its words split at spaces, "@@" the
 * input (written to a memfd, named by its /proc/self/fd path), e.g.
 *   FUZZ_ARGS='report --json @@'
 * A word ";" separates commands that each input is given to in turn, so
 * that one campaign covers a reader with every writer that follows it:
 *   FUZZ_ARGS='report @@ ; report --json @@'
 *   FUZZ_ARGS='merge -o /tmp/x/out @@' FUZZ_OUTPUT=/tmp/x/out
 * FUZZ_OUTPUT, when set, is removed after each input (merge never
 * replaces a file).  FUZZ_ARGS='replay-plan @@' is bench --replay's
 * reader without its timing: the dump read and its windows planned into
 * cases (replay_gather, replay_case), as bench_replay does before it
 * measures.
 *
 * Built by tests/fuzz/run_fuzz_commands.sh (make tests/fuzz/fuzz_command
 * with clang), which runs each family for a chosen time; a crash, an
 * ASan or UBSan report, or a leak is a finding. */
#include "tools/measure/replay.h"
#include "dump/reader/read.h"

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int memshim_main(int argc, char **argv);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_WORDS 16
#define MAX_COMMANDS 12

struct command {
	char *words[MAX_WORDS + 1]; /* "memshim", then the command's words */
	int word_count;
};
static struct command commands[MAX_COMMANDS];
static int command_count;
static char input[64];
static int input_fd;
static const char *output;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	const char *args = getenv("FUZZ_ARGS");
	char *copy = args ? strdup(args) : NULL;
	input_fd = memfd_create("fuzz_command", MFD_CLOEXEC);
	if (!copy || input_fd < 0 || !freopen("/dev/null", "w", stdout)) {
		fprintf(stderr, "fuzz_command: set FUZZ_ARGS (see tests/fuzz/fuzz_command.c)\n");
		exit(2);
	}
	snprintf(input, sizeof input, "/proc/self/fd/%d", input_fd);
	struct command *c = &commands[command_count++];
	c->words[c->word_count++] = "memshim";
	for (char *w = strtok(copy, " "); w; w = strtok(NULL, " ")) {
		if (strcmp(w, ";") == 0 && command_count < MAX_COMMANDS) {
			c = &commands[command_count++];
			c->words[c->word_count++] = "memshim";
		} else if (strcmp(w, ";") != 0 && c->word_count < MAX_WORDS)
			c->words[c->word_count++] = strcmp(w, "@@") == 0 ? input : w;
	}
	output = getenv("FUZZ_OUTPUT");
	return 0;
}

/* bench --replay's planning of a dump's windows, which precedes its timing. */
static void replay_plan(const char *path)
{
	static struct dump d;
	char why[600];
	hist_dump_init(&d);
	if (!hist_read_file(path, &d, why, sizeof why))
		return;
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (unsigned k = 0; k <= REPLAY_CLASSES; k++) {
			struct replay_calls r;
			size_t lo = k < REPLAY_CLASSES ? replay_classes[k].lo : 0,
			       hi = k < REPLAY_CLASSES ? replay_classes[k].hi : SIZE_MAX;
			if (!replay_gather(&d, (enum base_function)fn, lo, hi, &r))
				continue;
			for (int place = 0; place < PLACE_COUNT; place++)
				(void)replay_case((enum base_function)fn, &r, (enum placement)place, "fuzz");
			replay_free(&r);
		}
	hist_dump_free(&d);
}

static void run_command(const struct command *c)
{
	if (c->word_count > 2 && strcmp(c->words[1], "replay-plan") == 0) {
		replay_plan(input);
		return;
	}
	char *argv[MAX_WORDS + 1]; /* getopt permutes it: a fresh copy each time */
	memcpy(argv, c->words, sizeof argv);
	optind = 0; /* getopt starts over */
	memshim_main(c->word_count, argv);
	fflush(stdout);
	if (output)
		unlink(output);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (ftruncate(input_fd, 0) != 0 || (size && pwrite(input_fd, data, size, 0) != (ssize_t)size))
		abort();
	for (int i = 0; i < command_count; i++)
		run_command(&commands[i]);
	return 0;
}
