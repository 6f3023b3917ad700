/* memshim ab --profile: each run's dumps, and the CPU time per call inside
 * memcpy, memmove and memset that their profiles (MEMSHIM_PROFILE) give. */
#ifndef MEMSHIM_AB_PROFILE_H
#define MEMSHIM_AB_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

/* Makes a private folder for the dumps in dir ($TMPDIR or /tmp); false and
 * a reason if it cannot. */
bool ab_profile_open(char *dir, size_t size, char *why, size_t why_size);

/* Reads and removes every dump in dir (one per process of the run): the
 * CPU ns inside the three functions over their calls.  0 when it is not
 * known, with the reason in note (first one only: note left alone if set). */
double ab_profile_take(const char *dir, char *note, size_t note_size);

/* Removes the folder and anything left in it. */
void ab_profile_close(const char *dir);

#endif
