/* libFuzzer harness for the dump reader (dump/reader/read.c), which
 * `memshim report` runs on files from anywhere.
 *
 * Built by tests/fuzz/run_fuzz_report.sh with clang
 * -fsanitize=fuzzer,address,undefined together with
 * dump/reader/read.c and dump/write.c.  Each input is written
 * to a memfd and read back through its /proc/self/fd name with
 * hist_read_file(), twice into one struct dump (the merge path); a crash,
 * an ASan or UBSan report, or a leak is a finding.  Checked as well: a
 * failure always says why, what was read never lets a function's
 * calls or bytes summed over its buckets overflow (the reader promises
 * that, and the report's totals rely on it), and what was read, written
 * again as `memshim merge` writes it, reads back (a merge once wrote
 * "sequences 1 0", a weight doubled to 0, which every reader refused).
 *
 * Seeds: tests/fuzz/report_corpus (real dumps from tests/hist_program and a
 * few broken ones).  Longer run by hand:
 *   tests/fuzz/run_fuzz_report.sh --build-only
 *   tests/fuzz/fuzz_report -max_total_time=600 /tmp/fzr tests/fuzz/report_corpus
 */
#include "dump/reader/read.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* dispatch/variants.c defines this for the library; the reader needs only the names. */
const char *const base_function_names[FN_COUNT] = { "memcpy", "memmove", "memset" };

static int fd = -1, merged_fd = -1;
static char path[64], merged_path[64];

/* A memfd and its /proc/self/fd name. */
static int open_memfd(char *name, size_t size)
{
	int f = memfd_create("fuzz_report", MFD_CLOEXEC);
	if (f < 0)
		abort();
	snprintf(name, size, "/proc/self/fd/%d", f);
	return f;
}

/* d written merged, then read back: it must be. */
static void check_round_trip(const struct dump *d)
{
	if (merged_fd < 0)
		merged_fd = open_memfd(merged_path, sizeof merged_path);
	if (ftruncate(merged_fd, 0) != 0 || lseek(merged_fd, 0, SEEK_SET) != 0 || !hist_write_merged(merged_fd, d))
		abort();
	struct dump *back = calloc(1, sizeof *back);
	char why[256] = "";
	if (!back)
		abort();
	if (!hist_read_file(merged_path, back, why, sizeof why)) {
		fprintf(stderr, "a merge of what was read does not read back: %s\n", why);
		abort();
	}
	hist_dump_free(back);
	free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fd < 0)
		fd = open_memfd(path, sizeof path);
	if (ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	struct dump *d = malloc(sizeof *d);
	if (!d)
		abort();
	hist_dump_init(d);
	for (int round = 0; round < 2; round++) {
		char why[256] = "";
		bool ok = hist_read_file(path, d, why, sizeof why);
		if (!ok && why[0] == '\0')
			abort(); /* a refusal without a reason */
	}
	for (int fn = 0; fn < FN_COUNT; fn++) {
		uint64_t calls = 0, bytes = 0;
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			if (__builtin_add_overflow(calls, d->hist.fn[fn].calls[b], &calls) ||
			    __builtin_add_overflow(bytes, d->hist.fn[fn].bytes[b], &bytes))
				abort(); /* accepted counts whose totals overflow */
	}
	if (d->processes)
		check_round_trip(d);
	hist_dump_free(d);
	free(d);
	return 0;
}
