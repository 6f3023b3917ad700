#!/bin/sh
# make install (into a DESTDIR) puts the man page in share/man/man1, the
# LICENSE with the documentation, and the header, library and program where
# a program can use them; and the man page covers every command, option,
# MEMSHIM_* variable and exit status that --help and the library know, so
# the two cannot drift apart.
. "${top_srcdir:-.}/tests/lib.sh"
: "${T_MANDIR:?run through make check}"
tool=$T_MEMSHIM_TOOL
man=$top_srcdir/doc/memshim.1
root=$scratch/root

# ---- make install DESTDIR=... ----
# (a make of its own, not a job of the make check that runs this test)
(unset MAKEFLAGS MFLAGS MAKELEVEL; ${T_MAKE:-make} -C "$top_builddir" install DESTDIR="$root") \
	>"$scratch/install.log" 2>&1
expect_eq "make install DESTDIR=...: status" "$?" 0 || tail -n 20 "$scratch/install.log"
for f in "$T_MANDIR/man1/memshim.1" "$T_DOCDIR/LICENSE" "$T_INCLUDEDIR/memshim.h" "$T_LIBDIR/libmemshim.so" \
	"$T_BINDIR/memshim"; do
	if [ -f "$root$f" ]; then pass "installed: $f"; else fail "not installed: $f"; fi
done
expect_match "the man page is in share/man/man1" "$T_MANDIR/man1/memshim.1" '/share/man/man1/memshim\.1$'
cmp -s "$man" "$root$T_MANDIR/man1/memshim.1"
expect_eq "the installed man page is doc/memshim.1" "$?" 0
expect_match "LICENSE: Apache-2.0 in full" "$(cat "$root$T_DOCDIR/LICENSE")" 'END OF TERMS AND CONDITIONS'
expect_match "LICENSE: the data's licence noted" "$(cat "$root$T_DOCDIR/LICENSE")" 'data/distributions/fleetbench/'

# The installed header and library, from a program.
printf '#include <memshim.h>\nint main(void) { char a[4] = "abc", b[4]; memshim_memcpy_scalar(b, a, 4); return b[2] != 99; }\n' \
	>"$scratch/use.c"
if $CC -Wall -Werror -fno-builtin -I"$root$T_INCLUDEDIR" -L"$root$T_LIBDIR" -Wl,-rpath,"$root$T_LIBDIR" \
	-o "$scratch/use" "$scratch/use.c" -lmemshim 2>"$scratch/err"; then
	"$scratch/use"
	expect_eq "a program built on the installed header and library runs" "$?" 0
else
	fail "a program on the installed header does not build: $(cat "$scratch/err")"
fi

# ---- the man page against --help ----
# The roff source with its escapes undone: \- is -, \(aq is '.
text=$(sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\f[BIRP]//g' "$man")
commands=$("$tool" --help | awk '/^  [a-z]+ / { print $1 }')
expect_match "memshim --help lists commands" "$commands" '^info$'
for cmd in $commands help; do
	case $(printf '%s\n' "$text" | sed -n '/^\.SH COMMANDS/,/^\.SH /p') in
	*".B $cmd"* | *".BI \"$cmd "* | *".BR $cmd "* | *".BI $cmd "*) pass "man page: the $cmd command" ;;
	*) fail "man page: no entry for the $cmd command" ;;
	esac
done
for cmd in $commands; do
	for option in $("$tool" "$cmd" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
		case $text in
		*"$option"*) pass "man page: memshim $cmd $option" ;;
		*) fail "man page: memshim $cmd $option (in --help) is missing" ;;
		esac
	done
done
for option in --version -V --help -h; do
	case $text in
	*"$option"*) pass "man page: $option" ;;
	*) fail "man page: $option is missing" ;;
	esac
done
# Every variable the library or the tool reads (dispatch/settings.c lists the
# settings', dispatch/read_environment.c all the others).
variables=$(grep -ho '"MEMSHIM_[A-Z_]*"' "$top_srcdir/dispatch/settings.c" "$top_srcdir/dispatch/read_environment.c" |
	tr -d '"' | sort -u)
expect_match "dispatch/settings.c and read_environment.c list the variables" "$variables" '^MEMSHIM_IMPL$'
for v in $variables $(for cmd in $commands; do "$tool" "$cmd" --help; done | grep -o 'MEMSHIM_[A-Z_]*[A-Z]' | sort -u); do
	case $(printf '%s\n' "$text" | sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p') in
	*"$v"*) pass "man page, ENVIRONMENT: $v" ;;
	*) fail "man page, ENVIRONMENT: $v is missing" ;;
	esac
done
# The exit statuses --help gives are the ones the man page explains.
exits=$(printf '%s\n' "$text" | sed -n '/^\.SH "*EXIT STATUS/,/^\.SH /p')
for status in 0 1 2 126 127; do
	expect_match "memshim --help gives exit status $status" "$("$tool" --help | sed -n '/^Exit status/,$p')" "(^|[ (])$status "
	case $exits in
	*"$status"*) pass "man page, EXIT STATUS: $status" ;;
	*) fail "man page, EXIT STATUS: $status is missing" ;;
	esac
done
if command -v groff >/dev/null; then
	expect_eq "groff reads the man page without a warning" "$(groff -man -ww -z "$man" 2>&1)" ""
fi
finish
