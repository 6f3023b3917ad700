/* GLIBC_TUNABLES values as memshim ab takes them: glibc.NAME=VALUE items
 * joined by ':'.  glibc skips an item it does not know without a word, so a
 * typing error would make a setting the same as no setting: the names are
 * checked against what this system's dynamic loader lists. */
#ifndef MEMSHIM_GLIBC_TUNABLES_H
#define MEMSHIM_GLIBC_TUNABLES_H

#include <stdbool.h>
#include <stddef.h>

/* False, with a one-line reason, if text is malformed or names a tunable
 * the dynamic loader does not list (when it can list them: glibc 2.33 on). */
bool glibc_tunables_check(const char *text, char *why, size_t why_size);

#endif
