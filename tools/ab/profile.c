#include "tools/ab/profile.h"

#include "dump/reader/read.h"
#include "tools/util/units_shares.h"
#include "tools/util/timing_stats.h"

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

/* Sets note to text (cut to fit) unless it holds one already. */
static void note_once(char *note, size_t size, const char *text)
{
	if (note[0])
		return;
	size_t len = 0;
	for (; len + 1 < size && text[len]; len++)
		note[len] = text[len];
	note[len] = '\0';
}

bool ab_take_dumps(const char *dir, struct dump *d, char *note, size_t note_size)
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

/* The CPU ns inside per call from the profile; 0 (and a note) if unknown. */
static double profile_per_call(const struct dump *d, double calls, char *note, size_t note_size)
{
	double ns = 0;
	for (int fn = 0; fn < FN_COUNT; fn++)
		ns += (double)d->profile.fn_ns[fn];
	if (!d->profile.processes)
		note_once(note, note_size, "the dumps carry no profile (a libmemshim without MEMSHIM_PROFILE?)");
	else if (!ns)
		note_once(note, note_size,
			  "a run had no sample inside the functions: give it more work or a higher --profile=HZ");
	return d->profile.processes && ns ? ns / calls : 0;
}

/* The CPU ns in memshim's own recording per call, from the profile's
 * samples that fell in it; 0 where none did. */
static double recording_per_call(const struct dump *d, double calls)
{
	double ns = 0;
	for (int fn = 0; fn < FN_COUNT; fn++)
		ns += (double)d->profile.recording_ns[fn];
	return ns / calls;
}

/* The timed ns per call, overall and by size class; 0 (and a note) if unknown. */
static void timed_per_call(const struct dump *d, struct ab_fn_time *out, char *note, size_t note_size)
{
	if (!d->timing.processes) {
		note_once(note, note_size, "the dumps carry no timed calls (a libmemshim without MEMSHIM_TIMING, or "
					   "a CPU whose time-stamp counter cannot time them: see the command's stderr)");
		return;
	}
	out->timed = timing_per_call(d, 0, UINT64_MAX);
	for (unsigned c = 0; c < size_class_count && c < AB_CLASSES; c++) {
		out->timed_class[c] = timing_per_call(d, size_classes[c].lo, size_classes[c].hi);
		for (int fn = 0; fn < FN_COUNT; fn++) {
			struct timed_ns n;
			if (timing_range(&d->timing, (enum base_function)fn, size_classes[c].lo, size_classes[c].hi, &n))
				out->timed_class_calls[c] += n.calls;
		}
	}
	if (!out->timed)
		note_once(note, note_size, "a run had no timed call: give it more work or a smaller --timing=N");
}

void ab_profile_take(const char *dir, struct ab_fn_time *out, struct ab_notes *notes)
{
	static struct dump d;
	hist_dump_init(&d);
	*out = (struct ab_fn_time){ 0 };
	if (ab_take_dumps(dir, &d, notes->profile, sizeof notes->profile)) {
		double calls = 0;
		for (int fn = 0; fn < FN_COUNT; fn++)
			for (unsigned b = 0; b < HIST_BUCKETS; b++)
				calls += (double)d.hist.fn[fn].calls[b];
		if (!d.files || !calls) {
			const char *why = !d.files ? "a run left no dump" : "a run made no calls to the three functions";
			note_once(notes->profile, sizeof notes->profile, why);
			note_once(notes->timing, sizeof notes->timing, why);
		} else {
			out->profile = profile_per_call(&d, calls, notes->profile, sizeof notes->profile);
			out->recording = recording_per_call(&d, calls);
			timed_per_call(&d, out, notes->timing, sizeof notes->timing);
		}
	} else {
		note_once(notes->timing, sizeof notes->timing, notes->profile);
	}
	hist_dump_free(&d);
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
