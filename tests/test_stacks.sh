#!/bin/sh
# Whole call stacks (MEMSHIM_CALLSITES): a memcpy six calls below main is
# recorded with every frame, and report --folded prints them root first, as
# flamegraph.pl wants; a deeper stack is cut at 64 frames or at
# MEMSHIM_STACK_DEPTH, whose bad values get one line and the default; the
# text report still names the caller and two above it, JSON and merge keep
# the whole stack; a version 5 dump of three frames and a long version 6
# line are read.
. "${top_srcdir:-.}/tests/lib.sh"
tool=$T_MEMSHIM_TOOL
CC=${CC:-cc}
if ! have_config HAVE_LIBUNWIND || ! have_config HAVE_LIBDW; then
	echo "SKIP: call sites need libunwind and libdw"
	exit 77
fi

# depth1 ... depth6, each calling the next and doing a little after (no
# tail calls), depth6 calling memcpy, from main through depth1 and, as
# often, straight into depth3; recurse N goes N calls deep first.
cat >"$scratch/stacks.c" <<'C'
#include <stdlib.h>
#include <string.h>
static char a[4096], b[4096];
__attribute__((noinline)) int depth6(int n) { memcpy(a, b, (size_t)n); return a[1] + 6; }
__attribute__((noinline)) int depth5(int n) { return depth6(n) + 5; }
__attribute__((noinline)) int depth4(int n) { return depth5(n) + 4; }
__attribute__((noinline)) int depth3(int n) { return depth4(n) + 3; }
__attribute__((noinline)) int depth2(int n) { return depth3(n) + 2; }
__attribute__((noinline)) int depth1(int n) { return depth2(n) + 1; }
__attribute__((noinline)) int recurse(int levels) { return levels ? recurse(levels - 1) + 1 : depth6(100); }
int main(int argc, char **argv)
{
	int sum = 0;
	if (argc > 1)
		sum = recurse(atoi(argv[1]));
	else
		for (int i = 0; i < 20; i++)
			sum += depth1(1000) + depth3(1000);
	return sum == 0;
}
C
if ! $CC -O1 -fno-builtin -fno-inline -fno-optimize-sibling-calls -o "$scratch/stacks" "$scratch/stacks.c" \
	2>"$scratch/cc-err"; then
	fail "building the program: $(cat "$scratch/cc-err")"
	finish
	exit
fi
chain='main;depth1;depth2;depth3;depth4;depth5;depth6;memcpy'

# record NAME [ENV...]: the program's dump in $scratch/NAME, its stderr in $err
record() {
	name=$1
	shift
	preloaded env MEMSHIM_DUMP="$scratch/$name" MEMSHIM_CALLSITES=1 "$@" "$scratch/stacks"
}

record whole
expect_eq "recording: status, stderr" "$rc:$err" "0:"
expect_eq "the dump is version 9" "$(head -1 "$scratch/whole")" "memshim-histogram 9"
"$tool" report --folded "$scratch/whole" >"$scratch/whole.folded" 2>"$scratch/err"
expect_eq "report --folded: status, stderr" "$?:$(cat "$scratch/err")" "0:"
expect_match "folded: main and all six functions, root to leaf" "$(cat "$scratch/whole.folded")" \
	"^([^;]+;)*$chain [0-9]+\$"
expect_match "folded: the stack goes above main, to the root" "$(grep ";$chain " "$scratch/whole.folded")" \
	"^[^;]+;([^;]+;)*$chain "
expect_eq "folded: the stack through depth1 and the one straight into depth3, apart" \
	"$(grep -c ';main;depth3;depth4;depth5;depth6;memcpy 20000$' "$scratch/whole.folded"):$(wc -l <"$scratch/whole.folded")" "1:2"

# The text report: the caller and two above it, as before, the two stacks
# adding up in one line.
"$tool" report "$scratch/whole" >"$scratch/whole.txt"
lines=$(sed -n '/^top call sites by bytes/,/^$/p' "$scratch/whole.txt" | grep -A3 ' memcpy  *depth6')
expect_match "text report: one line of both stacks' calls" "$lines" '^ +100[.]0% +100[.]0% +40 '

expect_match "text report: the caller first" "$lines" '  memcpy  +depth6\+0x[0-9a-f]+ \('
expect_eq "text report: then its two callers, no more" \
	"$(printf '%s\n' "$lines" | sed -n '2,4s/^ *<- \([a-z0-9]*\).*/\1/p' | tr '\n' ' ')" "depth5 depth4 "

# JSON and a merge keep the whole stack.
"$tool" report --json "$scratch/whole" >"$scratch/whole.json"
expect_match "JSON: the site's frames run from depth6 to main" \
	"$(tr -d '\n' <"$scratch/whole.json")" \
	'"frames": \[\{[^}]*"function": "depth6"[^]]*"function": "depth1"[^}]*\}, \{[^}]*"function": "main"'
"$tool" merge -o "$scratch/merged" "$scratch/whole" 2>"$scratch/err"
"$tool" report --folded "$scratch/merged" >"$scratch/merged.folded"
expect_eq "merge: the same folded stacks" "$(cat "$scratch/merged.folded")" "$(cat "$scratch/whole.folded")"

# frames FILE: the frames of the recursion's folded line (its ';'s).
frames() { grep ';recurse;depth6;memcpy ' "$1" | tr -cd ';' | wc -c; }
preloaded env MEMSHIM_DUMP="$scratch/deep" MEMSHIM_CALLSITES=1 "$scratch/stacks" 100
"$tool" report --folded "$scratch/deep" >"$scratch/deep.folded"
expect_eq "a stack 100 calls deep keeps 64 frames" "$(frames "$scratch/deep.folded")" 64
expect_eq "... the leaf's end of it" "$(grep -c ';recurse;recurse;depth6;memcpy ' "$scratch/deep.folded")" 1

record two MEMSHIM_STACK_DEPTH=2
expect_eq "MEMSHIM_STACK_DEPTH=2: status, stderr" "$rc:$err" "0:"
"$tool" report --folded "$scratch/two" >"$scratch/two.folded"
expect_match "MEMSHIM_STACK_DEPTH=2: the caller and one above it" "$(cat "$scratch/two.folded")" \
	'^depth5;depth6;memcpy [0-9]+$'
for bad in 0 65 lots -3; do
	rm -f "$scratch/bad"
	record bad MEMSHIM_STACK_DEPTH="$bad"
	expect_eq "MEMSHIM_STACK_DEPTH=$bad: one line, the default" "$rc:$err" \
		"0:memshim: MEMSHIM_STACK_DEPTH=\"$bad\" is not a whole number of frames from 1 to 64; using call sites of up to 64 frames"
	"$tool" report --folded "$scratch/bad" >"$scratch/bad.folded"
	expect_match "MEMSHIM_STACK_DEPTH=$bad: whole stacks" "$(cat "$scratch/bad.folded")" ";$chain [0-9]+\$"
done

# A version 5 dump (three frames) still reads; so does a version 6 line
# longer than the 8 KiB older readers took.
dump() {
	printf '%s\n' "memshim-histogram $1" "pid 1" "program p" "reason exit" "variant memcpy glibc" \
		"function memcpy" "bucket 17 18 4 68" "callsite memcpy 4 68 $2" end
}
dump 5 'c+0x1(/bin/p+0x11) b+0x2(/bin/p+0x22) a+0x3(/bin/p+0x33)' >"$scratch/v5"
"$tool" report --folded "$scratch/v5" >"$scratch/v5.folded" 2>"$scratch/err"
expect_eq "a version 5 dump: its three frames, root first" "$?:$(cat "$scratch/v5.folded"):$(cat "$scratch/err")" \
	"0:a;b;c;memcpy 68:"
long=$(awk 'BEGIN { for (i = 64; i >= 1; i--) { printf "%sf%03d_%0200d+0x1(/bin/p+0x%x)", (i < 64 ? " " : ""), i, 0, i } }')
dump 6 "$long" >"$scratch/long"
"$tool" report --folded "$scratch/long" >"$scratch/long.folded" 2>"$scratch/err"
expect_eq "a 64-frame line of $(wc -c <"$scratch/long") bytes: read, status, stderr" "$?:$(cat "$scratch/err")" "0:"
expect_match "... folded root first, all 64 frames" "$(cat "$scratch/long.folded")" \
	'^f001_0{200};f002_0{200};(f0[0-9]{2}_0{200};){61}f064_0{200};memcpy 68$'

finish
