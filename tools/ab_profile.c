#include "tools/ab_profile.h"

#include "shim/histogram_format.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool ab_profile_open(char *dir, size_t size, char *why, size_t why_size)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, size, "%s/memshim-ab.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(dir))
		return true;
	snprintf(why, why_size, "cannot make a folder for the dumps (%s): %m", dir);
	dir[0] = '\0';
	return false;
}

static void note_once(char *note, size_t size, const char *text)
{
	if (!note[0])
		snprintf(note, size, "%s", text);
}

/* Adds every dump in dir to *d and removes it; false (and a note) if one
 * cannot be read. */
static bool take_dumps(const char *dir, struct dump *d, char *note, size_t note_size)
{
	DIR *folder = opendir(dir);
	if (!folder) {
		note_once(note, note_size, "the dump folder cannot be read");
		return false;
	}
	bool ok = true;
	for (struct dirent *e; (e = readdir(folder));) {
		char path[4400], why[400];
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (!hist_read_file(path, d, why, sizeof why)) {
			char text[600];
			snprintf(text, sizeof text, "a run's dump could not be read (%s)", why);
			note_once(note, note_size, text);
			ok = false;
		}
		unlink(path);
	}
	closedir(folder);
	return ok;
}

double ab_profile_take(const char *dir, char *note, size_t note_size)
{
	static struct dump d;
	hist_dump_init(&d);
	double per_call = 0;
	if (take_dumps(dir, &d, note, note_size)) {
		double calls = 0, ns = 0;
		for (int fn = 0; fn < FN_COUNT; fn++) {
			ns += (double)d.profile.fn_ns[fn];
			for (unsigned b = 0; b < HIST_BUCKETS; b++)
				calls += (double)d.hist.fn[fn].calls[b];
		}
		if (!d.files)
			note_once(note, note_size, "a run left no dump");
		else if (!d.profile.processes)
			note_once(note, note_size, "the dumps carry no profile (a libmemshim without MEMSHIM_PROFILE?)");
		else if (!calls)
			note_once(note, note_size, "a run made no calls to the three functions");
		else if (!ns)
			note_once(note, note_size,
				  "a run had no sample inside the functions: give it more work or a higher --profile=HZ");
		else
			per_call = ns / calls;
	}
	hist_dump_free(&d);
	return per_call;
}

void ab_profile_close(const char *dir)
{
	if (!dir[0])
		return;
	DIR *folder = opendir(dir);
	for (struct dirent *e; folder && (e = readdir(folder));)
		if (e->d_name[0] != '.')
			unlinkat(dirfd(folder), e->d_name, 0);
	if (folder)
		closedir(folder);
	rmdir(dir);
}
