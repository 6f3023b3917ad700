#!/bin/sh
# Secure mode (AT_SECURE): a set-user-ID-root program run by an unprivileged
# user, with the library preloaded.  MEMSHIM_DUMP names a file, so it must be
# ignored, with one line on stderr, and no file written (the program runs as
# root: it could write anywhere); MEMSHIM_IMPL names no file and must still
# choose the variant.  MEMSHIM_CALIBRATION names a file too: ignored, with one line.
#
# glibc preloads nothing into a set-user-ID program unless the library is
# named without a slash, lies in a trusted directory and is set-user-ID
# itself.  So, for the length of this test only, a copy of libmemshim.so is
# installed as $libdir_trusted/libmemshim-test-PID.so, mode 4755, and removed
# on exit (trap).  SKIP (77) unless run as root, with setpriv and a trusted
# directory, on a file system that honours the set-user-ID bit.
. "${top_srcdir:-.}/tests/lib.sh"
skip() { echo "SKIP: $*"; exit 77; }
lines() { if [ -z "$1" ]; then echo 0; else printf '%s\n' "$1" | wc -l; fi; }
[ "$(id -u)" = 0 ] || skip "needs root (to install a set-user-ID copy of the library in a trusted directory)"
command -v setpriv >/dev/null 2>&1 || skip "needs setpriv (util-linux) to run as nobody"
id nobody >/dev/null 2>&1 || skip "no user nobody"
trusted=
for d in /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu /usr/lib64 /lib64 /usr/lib /lib; do
	[ -d "$d" ] && [ ! -L "$d" ] && { trusted=$d; break; }
done
[ -n "$trusted" ] || skip "no trusted library directory found"
name=libmemshim-test-$$.so
installed=$trusted/$name
trap 'rm -f "$installed"; rm -rf "$scratch"' EXIT
cp "$MEMSHIM_LIBRARY" "$installed" && chown root:root "$installed" && chmod 4755 "$installed" ||
	skip "cannot install $installed"

# The programs: set-user-ID root, in a directory nobody can enter; the
# dump directory is writable by root only (and by the program, as root).
chmod 755 "$scratch"
mkdir "$scratch/bin" "$scratch/dumps"
chmod 755 "$scratch/bin"
# cat shows its own memory map: whether the library was loaded, whatever
# variant this machine's default picks (glibc's own functions on many).
for p in "$top_builddir/tests/hist_program" "$top_builddir/tests/show_binding_now" "$(command -v cat)"; do
	b=$scratch/bin/$(basename "$p")
	cp "$p" "$b" && chown root:root "$b" && chmod 4755 "$b" || skip "cannot make $p set-user-ID"
done
as_nobody() {
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups env LD_PRELOAD="$name" "$@" \
		>"$scratch/out" 2>"$scratch/err"
	rc=$?
	out=$(cat "$scratch/out")
	err=$(cat "$scratch/err")
}
as_nobody id -u
[ "$out" = "$(id -u nobody)" ] || skip "setpriv cannot switch to nobody: $err"
as_nobody "$scratch/bin/cat" /proc/self/maps
case $out in
*"/$name"*) ;;
*) skip "the set-user-ID program did not get the library (nosuid mount?): $err" ;;
esac

as_nobody MEMSHIM_IMPL=scalar "$scratch/bin/show_binding_now"
expect_eq "secure mode: MEMSHIM_IMPL still chooses" "$rc:$(bound memcpy):$(bound memset):$err" \
	"0:memshim_memcpy_scalar:memshim_memset_scalar:"

trap 'rm -f "$installed" /etc/memshim-test-$$*; rm -rf "$scratch"' EXIT
for target in "$scratch/dumps/h" "$scratch/dumps/h.%p" /etc/memshim-test-$$; do
	as_nobody MEMSHIM_DUMP="$target" MEMSHIM_IMPL=scalar "$scratch/bin/hist_program" calls 10
	expect_eq "secure mode, MEMSHIM_DUMP=$target: runs normally" "$rc:$(printf '%s' "$out" | head -c 4)" "0:pid "
	expect_eq "secure mode, MEMSHIM_DUMP=$target: one line on stderr" "$(lines "$err")" 1
	expect_match "secure mode, MEMSHIM_DUMP=$target: the line says it is ignored" "$err" \
		'^memshim: MEMSHIM_DUMP=".*" is ignored in a secure-mode \(set-user-ID\) process; using no recording$'
	expect_eq "secure mode, MEMSHIM_DUMP=$target: no file written" \
		"$(ls -A "$scratch/dumps")$(ls /etc/memshim-test-$$* 2>/dev/null)" ""
done
# MEMSHIM_CALIBRATION names a file: a secure-mode process must not read it.
printf 'memshim-calibration 1\n' >"$scratch/calibration"
chmod 644 "$scratch/calibration"
as_nobody MEMSHIM_CALIBRATION="$scratch/calibration" MEMSHIM_IMPL=scalar "$scratch/bin/show_binding_now"
expect_eq "secure mode, MEMSHIM_CALIBRATION: runs normally" "$rc:$(bound memcpy)" "0:memshim_memcpy_scalar"
expect_match "secure mode, MEMSHIM_CALIBRATION: one line says it is ignored" "$err" \
	'^memshim: MEMSHIM_CALIBRATION=".*" is ignored in a secure-mode \(set-user-ID\) process'
expect_eq "secure mode, MEMSHIM_CALIBRATION: only that line" "$(lines "$err")" 1

# The same program run by root, not set-user-ID: recording works (the checks above can fail).
rm -rf "$scratch/dumps"/*
preloaded env MEMSHIM_DUMP="$scratch/dumps/h" "$scratch/bin/hist_program" calls 10
expect_eq "not secure: the dump is written" "$rc:$err:$(ls -A "$scratch/dumps")" "0::h"

finish
