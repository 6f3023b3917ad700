/* The calibration file's part for the library: this machine's thresholds
 * for the default, written by `memshim tune --calibrate` and read here
 * by the resolvers at start-up, before the C library may be used.
 *
 * The library reads the file's first eight lines, which must fit in
 * CALIBRATION_HEAD bytes (what follows is memshim tune's cost curves):
 *
 *   memshim-calibration 3
 *   cpu AuthenticAMD 25 17        vendor, family, model it was measured on
 *   movsb 4096                    MEMSHIM_MOVSB_THRESHOLD's value (auto_movsb: its old key, still read)
 *   stosb 2048                    MEMSHIM_STOSB_THRESHOLD's value (auto_stosb, likewise)
 *   nt 25165824                   MEMSHIM_NT_THRESHOLD's value
 *   choice memcpy glibc:64,evex WHY...   the default's bands for
 *   choice memmove evex WHY...    memcpy, memmove and memset (dispatch/bands.h),
 *   choice memset glibc WHY...    and why (free text to the end of the line)
 *
 * A version 2 file has the same lines with one variant per function.  A
 * version 1 file (written before calibration chose variants) has the first
 * five lines only: its thresholds are read, and the default keeps
 * its built-in choice. */
#ifndef MEMSHIM_CALIBRATION_H
#define MEMSHIM_CALIBRATION_H

#include "dispatch/bands.h"
#include "shim/thresholds.h"

#include <stdbool.h>
#include <stddef.h>

#define CALIBRATION_FORMAT "memshim-calibration 3"
#define CALIBRATION_FORMAT_2 "memshim-calibration 2" /* one variant per function */
#define CALIBRATION_FORMAT_1 "memshim-calibration 1" /* thresholds only */
#define CALIBRATION_HEAD 2048
/* The longest reason a choice line may give (longer ones are cut). */
#define CALIBRATION_WHY_MAX 320
/* Room for such a reason after "calibration file \"PATH\": " (the path cut
 * to 100 characters), so that none is cut on its way to a message. */
#define CALIBRATION_DESCRIBED_MAX (CALIBRATION_WHY_MAX + 128)

/* The bands the file chose for the default; bands[fn].count 0
 * where it chose none (a version 1 file). */
struct calibration_choices {
	struct band_list bands[FN_COUNT];
	char why[FN_COUNT][CALIBRATION_DESCRIBED_MAX];
};

/* A head as parsed in place: pointers into its text. */
struct calibration_head {
	const char *vendor;
	unsigned family, model;
	size_t values[3];  /* movsb, stosb, nt */
	bool has_choices;  /* false: a version 1 file */
	struct band_list bands[FN_COUNT];
	const char *choice[FN_COUNT]; /* the bands as the file writes them */
	const char *why[FN_COUNT];
	char *rest;     /* the text after the head */
	unsigned lines; /* the lines taken: the head's, or up to the one with the problem */
};

/* Parses the head at the start of text, cutting its lines in place; NULL,
 * or the problem in words (the CPU it names is not checked: the library
 * applies a head of this CPU's only, memshim tune reads any).  memshim
 * tune reads its part of the file on from h->rest. */
const char *calibration_parse_head(char *text, struct calibration_head *h);

/* The file to read: MEMSHIM_CALIBRATION if set (*named true), else
 * $XDG_CACHE_HOME/memshim/calibration, else $HOME/.cache/memshim/calibration.
 * False when there is none (no variable gives a path, or it is too long). */
bool calibration_path(char *path, size_t size, bool *named);

/* Sets t's movsb, stosb and nt from the file, and the choices
 * it holds.  A missing file is reported only when `named`; a malformed one,
 * or one measured on another CPU, in one line.  False (and t and choices
 * untouched) when nothing was applied. */
bool calibration_apply(const char *path, bool named, struct thresholds *t, struct calibration_choices *choices);

#endif
