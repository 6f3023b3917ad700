/* libFuzzer harness for the tools' readers of files other than dumps,
 * which come from anywhere as well: one reader per build, chosen by
 * FUZZ_READER (tests/fuzz/run_fuzz_files.sh builds each):
 *   1  the calibration file (tools/tune/file.c, calibration_read)
 *   2  call-size distribution files (tools/measure/dist_file.c, size_dist_load)
 * Each input is written to a memfd and read through its /proc/self/fd
 * name; a crash, an ASan or UBSan report, a leak, or a refusal without a
 * reason is a finding. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#if FUZZ_READER == 1
#include "tools/tune/tune.h"

static bool read_input(const char *path, char *why, size_t size)
{
	static struct calibration c;
	return calibration_read(path, &c, why, size);
}
#elif FUZZ_READER == 2
#include "tools/measure/dist_file.h"
#include "tools/util/cli.h"

/* dispatch/variants.c defines this for the library (the calibration's
 * reader links it); this reader needs only the names. */
const char *const base_function_names[FN_COUNT] = { "memcpy", "memmove", "memset" };

/* The built-in distributions' folder, which the reader never needs here. */
const char *cli_locate(const char *variable, const char *build, const char *installed, const char *configured)
{
	(void)variable, (void)build, (void)installed, (void)configured;
	return NULL;
}

static bool read_input(const char *path, char *why, size_t size)
{
	struct size_dist *d = size_dist_load(path, why, size);
	size_dist_free(d);
	return d != NULL;
}
#else
#error "FUZZ_READER names no reader"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	if (fd < 0) {
		fd = memfd_create("fuzz_files", MFD_CLOEXEC);
		if (fd < 0)
			abort();
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	char why[256] = "";
	if (!read_input(path, why, sizeof why) && why[0] == '\0')
		abort(); /* a refusal without a reason */
	return 0;
}
