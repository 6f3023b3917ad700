/* Output files written under a temporary name, then renamed. */
#include "tools/util/output_file.h"

#include "dump/format.h"
#include "tools/util/cli_options.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *output_open(struct output_file *o, const char *command, const char *path)
{
	*o = (struct output_file){ .path = path };
	size_t size = strlen(path) + sizeof ".XXXXXX";
	int fd = -1;
	if ((o->tmp = malloc(size)) != NULL) {
		snprintf(o->tmp, size, "%s.XXXXXX", path);
		fd = mkstemp(o->tmp);
	}
	if (fd >= 0) {
		mode_t mask = umask(0); /* mkstemp's 0600: the mode an ordinary open would give */
		umask(mask);
		if (fchmod(fd, 0666 & ~mask) != 0 || !(o->f = fdopen(fd, "w"))) {
			int saved = errno;
			close(fd);
			unlink(o->tmp);
			errno = saved;
		}
	}
	if (!o->f) {
		fprintf(stderr, "memshim %s: cannot write %s: %s\n", command, path, o->tmp ? strerror(errno) : "out of memory");
		free(o->tmp);
		o->tmp = NULL;
	}
	return o->f;
}

bool output_finish(struct output_file *o, const char *command, bool replace)
{
	errno = EIO; /* what a write error that left no errno is told as */
	bool ok = !ferror(o->f);
	ok = fclose(o->f) == 0 && ok;
	ok = ok && (replace ? rename(o->tmp, o->path) == 0 : hist_take_name(o->tmp, o->path));
	if (!ok) {
		int saved = errno;
		fprintf(stderr, "memshim %s: cannot write %s: %s\n", command, o->path,
		        saved == EEXIST ? "a file of that name appeared meanwhile" : strerror(saved));
		unlink(o->tmp);
	}
	free(o->tmp);
	*o = (struct output_file){ 0 };
	return ok;
}

void output_discard(struct output_file *o)
{
	if (!o->f)
		return;
	fclose(o->f);
	unlink(o->tmp);
	free(o->tmp);
	*o = (struct output_file){ 0 };
}

int output_close(struct output_file *o, const char *command, int rc)
{
	if (!o->f)
		return rc;
	if (rc) {
		output_discard(o);
		return rc;
	}
	return output_finish(o, command, true) ? 0 : 1;
}

/* path with its folder resolved (links, "..", "."), into buf; path itself
 * when the folder cannot be resolved. */
static const char *resolved(const char *path, char *buf, size_t size)
{
	char copy[PATH_MAX], folder[PATH_MAX];
	if (snprintf(copy, sizeof copy, "%s", path) >= (int)sizeof copy || !realpath(dirname(copy), folder))
		return path;
	snprintf(copy, sizeof copy, "%s", path);
	if (snprintf(buf, size, "%s/%s", folder, basename(copy)) >= (int)size)
		return path;
	return buf;
}

bool output_same_file(const char *a, const char *b)
{
	struct stat x, y;
	if (stat(a, &x) == 0 && stat(b, &y) == 0)
		return x.st_dev == y.st_dev && x.st_ino == y.st_ino;
	char ra[PATH_MAX + NAME_MAX + 2], rb[sizeof ra];
	return strcmp(resolved(a, ra, sizeof ra), resolved(b, rb, sizeof rb)) == 0;
}

int output_check_names(const char *command, const char *const *outputs, size_t output_count,
                       char *const *inputs, size_t input_count)
{
	for (size_t i = 0; i < output_count; i++) {
		struct stat st;
		if (!outputs[i])
			continue;
		/* else found only once the file is written, when its rename fails */
		if (stat(outputs[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			fprintf(stderr, "memshim %s: %s is a directory: name a file to write\n", command, outputs[i]);
			return CLI_USAGE;
		}
		for (size_t j = i + 1; j < output_count; j++)
			if (outputs[j] && output_same_file(outputs[i], outputs[j])) {
				fprintf(stderr, "memshim %s: %s and %s name the same file: give each output its own\n",
				        command, outputs[i], outputs[j]);
				return CLI_USAGE;
			}
		for (size_t j = 0; j < input_count; j++)
			if (output_same_file(outputs[i], inputs[j])) {
				fprintf(stderr, "memshim %s: %s is an input of this command: an output never replaces one\n",
				        command, outputs[i]);
				return CLI_USAGE;
			}
	}
	return 0;
}
