/* What glibc itself does on this machine, for `memshim info` to show
 * beside memshim's choice. */
#ifndef MEMSHIM_GLIBC_INFO_H
#define MEMSHIM_GLIBC_INFO_H

/* Prints the implementations glibc's ifunc resolvers pick for memcpy,
 * memmove and memset in this process, by name where a symbol table (the
 * library's own or its debug file) has one, and the string thresholds its
 * dynamic linker reports (ld.so --list-diagnostics).  What cannot be had
 * is said in one line. */
void glibc_info_print(void);

#endif
