#!/bin/sh
# A program with a copy relocation of __libc_stack_end (tests/stack_end_copy.c,
# as Debian's node has one): the library's resolvers run before that copy is
# set, and must still read the environment (from /proc/self/stat's
# startstack), not crash.  Without the fallback this program died of SIGSEGV
# in early_environ.
. "${top_srcdir:-.}/tests/lib.sh"
program=$top_builddir/tests/stack_end_copy
if ! readelf -rW "$program" 2>/dev/null | grep -q 'R_X86_64_COPY.*__libc_stack_end'; then
	echo "SKIP: the link gave tests/stack_end_copy no copy relocation of __libc_stack_end"
	finish
fi
out=$(LD_PRELOAD=$MEMSHIM_LIBRARY "$program" hello 2>"$scratch/err")
expect_eq "preloaded into a program with a copy of __libc_stack_end: it runs" "$?:$out" "0:hello 1"
expect_eq "and writes nothing on stderr" "$(cat "$scratch/err")" ""
# the environment is read: MEMSHIM_IMPL chooses, MEMSHIM_VERBOSE says so
LD_PRELOAD=$MEMSHIM_LIBRARY MEMSHIM_IMPL=scalar MEMSHIM_VERBOSE=1 "$program" >/dev/null 2>"$scratch/err"
expect_match "the environment is read there (MEMSHIM_IMPL=scalar)" "$(cat "$scratch/err")" '^memshim: memcpy -> scalar'
finish
