#!/bin/sh
# Programs LD_PRELOAD cannot reach: `memshim run` says so in one line on
# stderr and runs them all the same (status and output kept): a static
# program, a static PIE, a Go program without cgo (a static program with
# Go's build-id note, as no Go compiler may be here), and an AddressSanitizer
# program when LD_PRELOAD is already set.  A dynamic program, a cgo-like one
# (Go's section beside libc.so.6) and an ASan program alone get no line; the
# ASan program runs and is recorded, and the way the message gives to run it
# by hand works.  A set-user-ID program (secure-execution mode) gets its line
# from run and record.
. "${top_srcdir:-.}/tests/lib.sh"
tool=$T_MEMSHIM_TOOL
cat >"$scratch/p.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	size_t n = argc > 1 ? (size_t)atoi(argv[1]) : 3000;
	char *a = malloc(n), *b = malloc(n);
	memset(a, 7, n);
	memcpy(b, a, n);
	printf("%d\n", b[n - 1]);
	free(a);
	free(b);
	return 3;
}
C
cd "$scratch" || exit 1
lines() { if [ -s "$1" ]; then wc -l <"$1"; else echo 0; fi; }

# run_tool WHAT EXPECTED_STDERR_REGEX PROGRAM [VAR=VALUE...]: memshim run --
# PROGRAM with those variables: status 3, output "7", and stderr one line
# matching the regex (or empty for "").
run_tool() {
	what=$1 regex=$2 program=$3
	shift 3
	env "$@" "$tool" run -- "$program" >out 2>err
	rc=$?
	set -- "$what" "$regex"
	expect_eq "$1: the program ran (status, output)" "$rc:$(cat out)" "3:7"
	if [ -z "$2" ]; then
		expect_eq "$1: nothing on stderr" "$(cat err)" ""
	else
		expect_eq "$1: one line on stderr [$(cat err)]" "$(lines err)" 1
		expect_match "$1: says why" "$(cat err)" "$2"
	fi
}

$CC -O1 -fno-builtin -o dynamic p.c || exit 99
run_tool "a dynamic program" "" ./dynamic

if $CC -O1 -fno-builtin -static -o static p.c 2>/dev/null; then
	run_tool "a static program" '^memshim run: \./static is statically linked: LD_PRELOAD cannot reach it' ./static
	objcopy --add-section .note.go.buildid=p.c static go
	run_tool "a Go program without cgo" '^memshim run: \./go is a Go program without cgo' ./go
	# on PATH, by name
	run_tool "a static program found on PATH" '^memshim run: static is statically linked' static \
		PATH="$scratch:$PATH"
else
	skip "static programs: no static C library (libc6-dev)"
fi
if $CC -O1 -fno-builtin -static-pie -o static-pie p.c 2>/dev/null; then
	run_tool "a static PIE" 'static-pie is statically linked' ./static-pie
fi
objcopy --add-section .go.buildinfo=p.c dynamic cgo
run_tool "a Go program with cgo (it calls the C library)" "" ./cgo

if $CC -O1 -fno-builtin -fsanitize=address -o asan p.c 2>/dev/null && ./asan >/dev/null 2>&1; [ $? = 3 ]; then
	run_tool "an ASan program, LD_PRELOAD unset" "" ./asan MEMSHIM_DUMP="$scratch/h.%p"
	"$tool" report h.* >report 2>&1
	expect_match "an ASan program is recorded" "$(cat report)" '^memcpy: [1-9][0-9]* calls'
	rm -f h.*
	runtime=$(readelf -d asan | sed -n 's/.*(NEEDED).*\[\(libasan[^]]*\)\].*/\1/p')
	# ASan refuses to start then, after our line
	LD_PRELOAD=libm.so.6 "$tool" run -- ./asan >out 2>err
	expect_eq "an ASan program, LD_PRELOAD set: ASan refuses (status 1)" "$?" 1
	expect_match "an ASan program, LD_PRELOAD set: our line first, with the way to run it" "$(head -n 1 err)" \
		"^memshim run: \./asan uses AddressSanitizer, whose runtime must come first in LD_PRELOAD: set LD_PRELOAD=$runtime:OTHERS"
	# which is what the message says to do
	run_tool "an ASan program, runtime first in LD_PRELOAD" "" ./asan LD_PRELOAD="$runtime:libm.so.6"
	LD_PRELOAD="$runtime:$MEMSHIM_LIBRARY" MEMSHIM_DUMP=$scratch/h.%p ./asan >out 2>err
	expect_eq "ASan by hand: LD_PRELOAD=$runtime:libmemshim.so runs" "$?:$(cat out)" "3:7"
	expect_eq "ASan by hand: and records" "$(ls h.* 2>/dev/null | wc -l)" 1
else
	skip "ASan programs: cannot build one (libasan)"
fi

# A path in LD_PRELOAD that cannot be opened: said once by memshim and left
# out for the command, not once per process by each one's loader (the
# loader of memshim itself may still say it, once).
LD_PRELOAD="$scratch/no-such-lib.so" "$tool" run -- sh -c 'sh -c true; sh -c true; sh -c true' >out 2>err
expect_eq "an LD_PRELOAD path that cannot be opened: the command runs" "$?" 0
expect_match "... memshim says it once" "$(grep '^memshim run:' err)" \
	"^memshim run: LD_PRELOAD names $scratch/no-such-lib.so, which cannot be opened \(No such file or directory\): left out for the command$"
expect_eq "... and no process of the command's loader says it (memshim's own may, once)" \
	"$(grep -c 'no-such-lib.*cannot be preloaded' err | awk '{ print ($1 <= 1) }')" 1

# A set-user-ID program owned by another user runs in secure-execution mode,
# where the dynamic linker drops LD_PRELOAD: run and record say so (record
# names that, not "static or Go", as why nothing was recorded).  A
# set-user-ID program of our own changes no id: it is reached.
cp dynamic suid-own && chmod 4755 suid-own
run_tool "a set-user-ID program of our own" "" ./suid-own
if [ "$(id -u)" = 0 ] && cp dynamic suid && chown nobody suid && chmod 4755 suid &&
	[ "$(./suid; echo $?)" = "7
3" ]; then
	run_tool "a set-user-ID program" \
		'^memshim run: \./suid is set-user-ID: it runs in secure-execution mode, where the dynamic linker drops LD_PRELOAD' ./suid
	"$tool" record -o rec -- ./suid >out 2>err
	expect_eq "record of a set-user-ID program: status, output" "$?:$(cat out)" "3:7"
	expect_match "... says why" "$(head -n 1 err)" '^memshim record: \./suid is set-user-ID: it runs in secure-execution mode'
	expect_eq "... and names that as why nothing was recorded" "$(sed -n 2p err)" \
		"memshim record: no process of the command wrote a dump (LD_PRELOAD does not reach the command, as said above)"
else
	skip "a set-user-ID program of another user: needs root, and a file system that honours the bit"
fi
finish
