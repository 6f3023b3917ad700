/* What memshim info says of a shipped row's ratios (tools/util/row_words.c):
 * a row made from bench's one placement a class, whose reasons claim the
 * worst of three placements, is said to hold one; others as they are. */
#include "tools/util/row_words.h"

#include "tests/unit_check.h"

#include <string.h>

#define REASON "glibc to 1 KiB; avx2 to 32 KiB 0.58-0.74x" ROW_TEXT_WORST_PLACEMENT

static struct cpu_row row(const char *measured)
{
	struct cpu_row r = { .file = "made.row", .measured = measured };
	for (int fn = 0; fn < FN_COUNT; fn++)
		r.why[fn] = REASON;
	return r;
}

int main(void)
{
	char out[400];
	const char *line = "memcpy -> avx2 [measured best: " REASON "]";
	struct cpu_row bench = row("AuthenticAMD family 25 model 1; " ROW_TEXT_FROM_BENCH ", memshim 0.1.0");
	const char *said = row_words_truth(&bench, line, out, sizeof out);
	printf("  %s\n", said);
	check("a bench row of one placement: said so",
	      strcmp(said, "memcpy -> avx2 [measured best: glibc to 1 KiB; avx2 to 32 KiB 0.58-0.74x"
			   ROW_TEXT_ONE_PLACEMENT "]") == 0);
	struct cpu_row every = row("x, " ROW_TEXT_EVERY_PLACEMENT "; " ROW_TEXT_FROM_BENCH ", y");
	check("a bench row of every placement: as it is", row_words_truth(&every, line, out, sizeof out) == line);
	struct cpu_row calibrated = row("GenuineIntel family 6 model 167; memshim cpu-row --calibrate");
	check("a calibrated row: as it is", row_words_truth(&calibrated, line, out, sizeof out) == line);
	const char *file = "memcpy -> avx2 [calibration file: avx2 0.5x" ROW_TEXT_WORST_PLACEMENT "]";
	check("a reason that is not the row's: as it is", row_words_truth(&bench, file, out, sizeof out) == file);
	check("no row: as it is", row_words_truth(NULL, line, out, sizeof out) == line);

	char why[120] = REASON;
	row_words_one_placement(why, sizeof why);
	check("cpu-row's reason of one placement", strcmp(why, "glibc to 1 KiB; avx2 to 32 KiB 0.58-0.74x"
							 ROW_TEXT_ONE_PLACEMENT) == 0);
	char tight[sizeof REASON] = REASON; /* room for the old words, not the new */
	row_words_one_placement(tight, sizeof tight);
	check("where that does not fit: no parenthesis, nothing cut",
	      strcmp(tight, "glibc to 1 KiB; avx2 to 32 KiB 0.58-0.74x") == 0);
	return checks_finish();
}
