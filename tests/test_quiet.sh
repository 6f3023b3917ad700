#!/bin/sh
# Nothing on stderr from the library in any process, children included:
# the dynamic linker's "Relink ... for IFUNC symbol" line used to appear in
# every process with a library relocated before ours (dispatch/export_stub.h).
#   a parallel build under `memshim run` (make starts its children with
#     posix_spawn, the compilers load libzstd, libgmp ...), recording or not;
#   a pipeline under a bare LD_PRELOAD;
#   an autoconf configure run, whose config.h and stderr must not change
#     (with AC_LANG_WERROR any line from a compiler fails a check).
. "${top_srcdir:-.}/tests/lib.sh"
LC_ALL=C
export LC_ALL
limit=${T_MEMSHIM_TIMEOUT:-120}
# The inner make is a build of its own, not a part of the make that runs this test.
unset MAKEFLAGS MFLAGS MAKELEVEL

# ---- make -j2 of a small project ----
project=$scratch/project
mkdir "$project"
for i in 1 2 3 4; do
	printf '#include <string.h>\nint f%s(char *d, const char *s, unsigned n) { memcpy(d, s, n); return d[0]; }\n' \
		"$i" >"$project/f$i.c"
done
printf 'int f1(char *, const char *, unsigned);\nint main(void) { char a[8], b[8] = "x"; return f1(a, b, 8) != 120; }\n' \
	>"$project/main.c"
printf 'OBJECTS = main.o f1.o f2.o f3.o f4.o\nprog: $(OBJECTS)\n\t$(CC) -o $@ $(OBJECTS)\n%%.o: %%.c\n\t$(CC) -O2 -c $<\n' \
	>"$project/Makefile"
(cd "$project" && timeout -k 5 "$limit" "$T_MEMSHIM_TOOL" run -- make -s -j2 >"$scratch/out" 2>"$scratch/err")
expect_eq "memshim run -- make -j2: built" "$?:$(ls "$project/prog" 2>&1)" "0:$project/prog"
expect_eq "memshim run -- make -j2: nothing on stderr" "$(cat "$scratch/err")" ""
(cd "$project" && rm -f ./*.o prog)
mkdir "$scratch/dumps"
(cd "$project" && MEMSHIM_DUMP="$scratch/dumps/h.%e.%p" timeout -k 5 "$limit" "$T_MEMSHIM_TOOL" run -- \
	make -s -j2 >"$scratch/out" 2>"$scratch/err")
expect_eq "recording make -j2: built, nothing on stderr" "$?:$(cat "$scratch/err")" "0:"
expect_match "recording make -j2: the compilers recorded too" "$(ls "$scratch/dumps")" '^h\.cc1\.'

# ---- a pipeline under a bare LD_PRELOAD ----
expected=$(ls / | sort)
preloaded bash -c 'ls / | sort'
expect_eq "LD_PRELOAD bash -c 'ls / | sort': output" "$rc:$out" "0:$expected"
expect_eq "LD_PRELOAD bash -c 'ls / | sort': nothing on stderr" "$err" ""

# ---- autoconf ----
if ! command -v autoconf >/dev/null || ! command -v autoheader >/dev/null; then
	skip "autoconf under the library: autoconf is not installed"
	finish
	exit $?
fi
mkdir "$scratch/ac"
cat >"$scratch/ac/configure.ac" <<'AC'
AC_INIT([quiet], [1])
AC_CONFIG_HEADERS([config.h])
AC_PROG_CC
AC_LANG_WERROR
AC_CHECK_HEADERS([string.h zstd.h no_such_header.h])
AC_CHECK_FUNCS([memcpy mempcpy explicit_bzero no_such_function])
AC_CHECK_LIB([z], [inflate])
AC_OUTPUT
AC
(cd "$scratch/ac" && autoconf && autoheader) >"$scratch/autoconf.err" 2>&1
expect_eq "autoconf and autoheader ran" "$?" 0
cp -r "$scratch/ac" "$scratch/ac-with"
(cd "$scratch/ac" && timeout -k 5 "$limit" ./configure >/dev/null 2>"$scratch/plain.err")
(cd "$scratch/ac-with" && LD_PRELOAD=$MEMSHIM_LIBRARY timeout -k 5 "$limit" ./configure >/dev/null \
	2>"$scratch/with.err")
expect_eq "configure ran with the library" "$?" 0
if cmp -s "$scratch/ac/config.h" "$scratch/ac-with/config.h"; then
	pass "configure: config.h byte-identical with and without the library"
else
	fail "configure: config.h differs: $(diff "$scratch/ac/config.h" "$scratch/ac-with/config.h" | head -5)"
fi
if cmp -s "$scratch/plain.err" "$scratch/with.err"; then
	pass "configure: stderr byte-identical with and without the library"
else
	fail "configure: stderr differs: $(diff "$scratch/plain.err" "$scratch/with.err" | head -5)"
fi
expect_match "configure: the checks found what is there" "$(cat "$scratch/ac/config.h")" '^#define HAVE_STRING_H 1$'
finish
