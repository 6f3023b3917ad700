/* memshim ab --profile and --timing: each run's dumps, and the time per
 * call inside memcpy, memmove and memset that their profiles
 * (MEMSHIM_PROFILE, CPU time) and timed calls (MEMSHIM_TIMING) give. */
#ifndef MEMSHIM_AB_PROFILE_H
#define MEMSHIM_AB_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

/* Makes a private folder for the dumps in dir ($TMPDIR or /tmp); false and
 * a reason if it cannot. */
bool ab_profile_open(char *dir, size_t size, char *why, size_t why_size);

/* The size classes of memshim report (tools/util/units_shares.h), at most. */
#define AB_CLASSES 16

/* What one run's dumps say; 0 where it is not known. */
struct ab_fn_time {
	double profile;                 /* CPU ns inside the three functions over their calls */
	double recording;               /* CPU ns in memshim's recording over those calls (sampled) */
	double timed;                   /* ns per call from the timed calls */
	double timed_class[AB_CLASSES]; /* the same on each size class's calls */
	double timed_class_calls[AB_CLASSES]; /* the timed calls each rests on */
};

/* Why a run had no in-function time: the first reason seen for each measure. */
struct ab_notes {
	char profile[200], timing[200];
};

struct dump;
/* Adds every dump in dir to *d and removes it; false (and the reason in
 * note, unless it holds one already) if one cannot be read. */
bool ab_take_dumps(const char *dir, struct dump *d, char *note, size_t note_size);

/* Reads and removes every dump in dir (one per process of the run) into
 * *out; a reason in notes where a measure is not known (a note already
 * there is kept). */
void ab_profile_take(const char *dir, struct ab_fn_time *out, struct ab_notes *notes);

/* Removes the folder and anything left in it. */
void ab_profile_close(const char *dir);

#endif
