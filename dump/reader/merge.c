/* Many dumps added up into one merged dump file (memshim merge, and record
 * after its command). */
#include "dump/reader/merge.h"

#include "tools/util/cli_options.h"
#include "dump/reader/read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Writes d as one merged dump at out, through out.tmp; false (with a message) if it failed. */
static bool write_merged(const char *command, const char *out, const struct dump *d)
{
	size_t size = strlen(out) + 5;
	char *tmp = malloc(size);
	if (!tmp)
		return false;
	snprintf(tmp, size, "%s.tmp", out);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	bool ok = fd >= 0 && hist_write_merged(fd, d);
	int saved = errno;
	if (fd >= 0 && close(fd) != 0 && ok) {
		ok = false;
		saved = errno;
	}
	if (ok && !hist_take_name(tmp, out)) {
		ok = false;
		saved = errno;
	}
	if (!ok) {
		fprintf(stderr, "memshim %s: cannot write %s: %s\n", command, fd >= 0 ? out : tmp, strerror(saved));
		if (fd >= 0)
			unlink(tmp);
	}
	free(tmp);
	return ok;
}

/* Reads the inputs and writes them merged to out; *written says whether
 * it was.  The exit status: 0, 1 (some left out, or nothing written), or 2
 * (out exists). */
int dump_merge_files(const char *command, const char *out, char *const *args, size_t n, bool all_or_nothing,
                     struct dump_inputs *in, bool *written)
{
	unsigned bad = 0;
	*written = false;
	if (!dump_inputs_expand(command, args, n, in, &bad)) {
		fprintf(stderr, "memshim %s: out of memory\n", command);
		return CLI_FAILED;
	}
	struct stat there;
	if (lstat(out, &there) == 0) {
		fprintf(stderr, "memshim %s: %s exists (a merge never replaces a file); give another -o\n", command, out);
		return CLI_USAGE;
	}
	static struct dump d;
	hist_dump_init(&d);
	bad += dump_load_inputs(command, in, &d);
	dump_merge_sites_said(command, &d);
	if (d.processes == 0)
		fprintf(stderr, "memshim %s: no readable dump\n", command);
	else if (bad && all_or_nothing)
		fprintf(stderr, "memshim %s: %s not written: %u input%s left out or read in part\n", command, out,
		        bad, bad == 1 ? "" : "s");
	else
		*written = write_merged(command, out, &d);
	hist_dump_free(&d);
	return bad || !*written ? CLI_FAILED : CLI_OK;
}
