#!/bin/sh
# memshim ab --in-process: both settings in one run, alternating block by
# block.  What it reads (A/A, and a case bench has measured) is printed as
# figures, not judged: a ratio of two times is a time, and one of these
# read 0.28 against bench's 0.40 on a busy machine.  The checks are of the
# table, the processes and threads, and the records.
. "${top_srcdir:-.}/tests/lib.sh"
program=$(cd "$top_builddir" && pwd)/tests/hist_program
ab() { timeout -k 5 120 "$T_MEMSHIM_TOOL" ab --in-process "$@" >"$scratch/out" 2>"$scratch/err"; rc=$?; }
# The B/A ratio and its interval of the table's line $1 ("all", "memcpy all", "0-16 B").
line_of() { awk -v want="$1" '{ line = $0; sub(/^ +/, "", line) }
	index(line, want " ") == 1 && NF >= 8 { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+-[0-9.]+$/) { print $(i - 1), $i; exit } }' "$scratch/out"; }

ab --impl glibc,glibc -- "$program" small 1000000
expect_eq "A/A: runs" "$rc" 0
expect_eq "A/A: nothing on stderr" "$(cat "$scratch/err")" ""
set -- $(line_of all)
expect_match "A/A: a ratio and its interval" "$1 $2" '^[0-9.]+ [0-9.]+-[0-9.]+$'
echo "figure: A/A on a million calls: $1 ($2)" # a time, printed, not judged
expect_match "the header names both settings and the CPU" "$(head -2 "$scratch/out" | tr '\n' ' ')" 'A = glibc, B = glibc.*CPU: '

# A case bench knows: random 0-16 B copies in L1, where the masked copy
# takes well under 0.8 of glibc's time.
if usable_here avx512_mask_erms; then
	"$T_MEMSHIM_TOOL" bench --quick --processes 1 --variants avx512_mask_erms --functions memcpy --cases class \
		--csv "$scratch/bench.csv" >/dev/null 2>&1
	bench=$(awk -F, '$2 == "avx512_mask_erms" && $4 == "0-16 B" && $6 == "L1" { print $11 }' "$scratch/bench.csv")
	ab --impl glibc,avx512_mask_erms -- "$program" small 1000000
	set -- $(line_of all)
	expect_match "0-16 B in L1: a ratio and its interval" "$1 $2" '^[0-9.]+ [0-9.]+-[0-9.]+$'
	echo "figure: 0-16 B in L1, avx512_mask_erms: in process $1 ($2), bench $bench" # times, not judged
else
	skip "the masked copy against bench: avx512_mask_erms does not run on this CPU"
fi

# Every process and thread: a child's pairs and 16 threads' come back.
ab --impl glibc,sse2 -- "$program" fork 20000
expect_eq "fork: runs" "$rc" 0
expect_match "fork: both processes' pairs" "$(sed -n 2p "$scratch/out")" ', 2 processes$'
ab --impl glibc,sse2 -- "$program" threads 2000
expect_eq "threads: runs" "$rc" 0
expect_match "threads: pairs from the threads" "$(sed -n 5p "$scratch/out")" '; [1-9][0-9]+ pairs of blocks'
expect_match "threads: every function has its line" "$(cat "$scratch/out")" '^  memmove +all '

# --csv: the table's lines, each function's headline ("all") first, then
# one per size class it shows; the columns, not the figures, are checked.
ab --impl glibc,sse2 --csv "$scratch/ab.csv" -- "$program" threads 2000
expect_eq "--csv: runs" "$rc" 0
expect_eq "--csv: its columns" "$(head -1 "$scratch/ab.csv")" \
	function,class,setting_a,setting_b,calls_a,calls_b,ns_per_call_a,ns_per_call_b,ratio,ratio_low,ratio_high,pairs
# The table's lines as "function,class": a function's headline "all", its classes below it.
table_lines() { awk '/^  function size class/ { on = 1; next } /^  the calls took/ { on = 0 }
	on { fn = substr($0, 3, 8); class = substr($0, 12, 14); sub(/ +$/, "", fn); sub(/ +$/, "", class)
	     if (fn == "all") next; if (fn != "") f = fn; print f "," class }' "$scratch/out"; }
expect_eq "--csv: one row per function and class of the table, in its order" \
	"$(tail -n +2 "$scratch/ab.csv" | cut -d, -f1,2)" "$(table_lines)"
expect_eq "--csv: an \"all\" row for each of the three functions" \
	"$(awk -F, '$2 == "all" { print $1 }' "$scratch/ab.csv" | tr '\n' ' ')" "memcpy memmove memset "
expect_eq "--csv: every row has 12 fields, the settings and numbers" \
	"$(tail -n +2 "$scratch/ab.csv" | awk -F, 'NF != 12 || $3 != "glibc" || $4 != "sse2" ||
		$5 !~ /^[0-9]+$/ || $9 !~ /^[0-9.]+$/ || $12 !~ /^[1-9][0-9]*$/' | head -3)" ""
cp "$scratch/ab.csv" "$scratch/ab.before"
ab --impl glibc,sse2 --csv "$scratch/ab.csv" -- true
expect_eq "--csv, a run without pairs: status 1" "$rc" 1
expect_eq "... and the earlier file as it was" "$(cmp "$scratch/ab.csv" "$scratch/ab.before" && echo same)" same
expect_eq "... and no temporary file left" "$(ls "$scratch" | grep -c '^ab\.csv\.')" 0
ab --impl glibc,sse2 --csv "$scratch" -- "$program" small 10
expect_eq "--csv naming a directory: status 2" "$rc" 2
expect_eq "... in one line" "$(wc -l <"$scratch/err")" 1
"$T_MEMSHIM_TOOL" ab --csv "$scratch/x.csv" --impl glibc,sse2 -- true >/dev/null 2>&1
expect_eq "--csv without --in-process: status 2" "$?" 2

# Every exit path keeps its pairs: exec (the dump before it), _Exit, vfork
# and exec; and a program's own output is left as it was.
ab --impl glibc,sse2 -- "$program" exec 3000
expect_match "exec: the pairs of both images" "$(sed -n 2p "$scratch/out")" ', 2 processes$'
ab --impl glibc,sse2 -- "$program" _Exit 3000
expect_match "_Exit: its pairs" "$(sed -n 5p "$scratch/out")" '; [1-9][0-9]* pairs of blocks'
ab --impl glibc,sse2 -- "$program" vfork-exec 3000
expect_match "vfork and exec: both processes" "$(sed -n 2p "$scratch/out")" ', 2 processes$'
seq 1 30000 | sort -r >"$scratch/expected"
"$T_MEMSHIM_TOOL" ab --in-process --show-output --impl glibc,sse2 -- sh -c 'seq 1 30000 | sort -r' \
	>"$scratch/out" 2>"$scratch/err"
expect_eq "the program's output, byte for byte, before the table" \
	"$(head -30000 "$scratch/out" | cmp - "$scratch/expected" && echo same)" same
MEMSHIM_DUMP="$scratch/quiet.%p" MEMSHIM_AB=glibc/sse2 run true
expect_eq "a program that never calls them: nothing on its stderr" "$err" ""

# --runs: several runs, combined, each process's pairs its own.
ab --runs 2 --impl glibc,sse2 -- "$program" small 100000
expect_eq "--runs 2: runs" "$rc" 0
expect_match "--runs 2: two runs, two processes" "$(head -2 "$scratch/out" | tr '\n' ' ')" 'in 2 runs of .*, 2 processes'
ab --runs 10 --impl glibc,sse2 -- "$program" small 10
expect_eq "--runs 10 with --in-process: status 2" "$rc" 2

# Bad input: one line, a non-zero status, never a hang.
ab --impl glibc,nonsense -- "$program" small 10
expect_eq "an unknown setting: status 2" "$rc" 2
expect_eq "an unknown setting: one line" "$(wc -l <"$scratch/err")" 1
MEMSHIM_HWCAPS=-avx2 ab --impl glibc,avx2 -- "$program" small 10
expect_eq "a setting this CPU can't run: status 2" "$rc" 2
expect_match "a setting this CPU can't run: said" "$(cat "$scratch/err")" 'avx2: is not supported'
ab --impl glibc -- "$program" small 10
expect_eq "one setting: status 2" "$rc" 2
ab --impl glibc,sse2 -- true
expect_eq "a program that exits at once: status 1" "$rc" 1
expect_match "a program that exits at once: why" "$(cat "$scratch/err")" 'no pair of blocks was completed'
ab --impl glibc,sse2 -- "$program" small 0
expect_eq "a program that never calls memcpy: status 1" "$rc" 1
expect_eq "... in one line" "$(wc -l <"$scratch/err")" 1
ab --impl glibc,sse2 -- sh -c 'exit 3'
expect_eq "a failing command: status 1" "$rc" 1
ab --impl glibc,sse2 --block 3 -- "$program" small 10
expect_eq "a bad --block: status 2" "$rc" 2
"$T_MEMSHIM_TOOL" ab --block 64 --impl glibc,sse2 -- true >/dev/null 2>&1
expect_eq "--block without --in-process: status 2" "$?" 2

# An arm as tune suggests a setting: a variant per function, and thresholds,
# which both arms share (the process's), so they may differ only from glibc's.
ab --impl glibc --env 'MEMSHIM_MEMCPY=sse2 MEMSHIM_MEMSET=glibc MEMSHIM_NT_THRESHOLD=33554432' -- "$program" threads 2000
expect_eq "an --env arm of variables per function against glibc: runs" "$rc:$(cat "$scratch/err")" "0:"
expect_match "and names it" "$(sed -n 1p "$scratch/out")" '^memshim ab --in-process: A = glibc, B = env1, '
ab --impl sse2 --env 'MEMSHIM_MEMCPY=avx2 MEMSHIM_NT_THRESHOLD=1000000' -- "$program" small 10
expect_eq "thresholds unlike the other arm's, which is not glibc's: status 2, one line" \
	"$rc $(wc -l <"$scratch/err")" "2 1"
expect_match "and why" "$(cat "$scratch/err")" "the arms' thresholds differ"
ab --impl glibc --env 'MEMSHIM_MEMCPY=avx22' -- "$program" small 10
expect_eq "a function's misspelt variant: status 2" "$rc" 2
expect_match "... named" "$(cat "$scratch/err")" '^memshim ab: --env MEMSHIM_MEMCPY=avx22: is not a variant'
ab --impl glibc --env 'FOO=1' -- "$program" small 10
expect_eq "an arm with another variable: status 2, one line" "$rc $(wc -l <"$scratch/err")" "2 1"

# The library alone: a bad MEMSHIM_AB is said once, and the program runs.
MEMSHIM_DUMP="$scratch/h.%p" MEMSHIM_AB=glibc run "$program" small 10
expect_eq "MEMSHIM_AB without '/': the program runs" "$rc" 0
expect_match "MEMSHIM_AB without '/': said" "$err" "MEMSHIM_AB=\"glibc\" has no '/'"
MEMSHIM_AB=glibc/sse2 run "$program" small 10
expect_match "MEMSHIM_AB without recording: said" "$err" 'needs recording'
finish
