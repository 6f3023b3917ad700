#!/bin/sh
# Windows of consecutive calls (MEMSHIM_SEQUENCES, record --sequences) and
# their replay: a program whose calls cycle with period 64 gets windows
# starting at many phases of the cycle, each holding consecutive calls in
# order; the windows are written (dump version 7 on), read, merged (capped)
# and refused when malformed, and older dumps still read; bench --replay
# on a synthetic dump whose windows repeat one size gives the ratio to
# glibc that bench's fixed-size case gives for that size, within the
# replay's own interval (a paired ratio: no time is compared); bad --replay
# input gets one line and a non-zero exit; tune --impl predicts from the
# replay where there are windows, from the histogram where there are none,
# and says which.
. "${top_srcdir:-.}/tests/lib.sh"
program=$(cd "$top_builddir" && pwd)/tests/hist_program
tool=$T_MEMSHIM_TOOL
dir=$scratch/dumps
mkdir "$dir"

# ---- windows of a program whose calls cycle with period 64 ----
preloaded env MEMSHIM_DUMP="$dir/p.%p" MEMSHIM_SEQUENCES=8 "$program" period 400000
dump=$(ls "$dir"/p.* 2>/dev/null | head -1)
expect_eq "period program: exits 0" "$rc" 0
expect_eq "period program: nothing on stderr" "$err" ""
expect_match "the dump is version 9" "$(head -1 "$dump")" '^memshim-histogram 9$'
expect_match "a sequences record: length 8" "$(grep '^sequences ' "$dump")" '^sequences 8 [0-9]+$'
windows=$(grep -c '^window memcpy ' "$dump")
# A thread keeps up to 512 windows, about half as many just after it thins
# them (preload/sequences.h); a window cut short by the end of the run is
# kept too.
if [ "$windows" -ge 128 ] && [ "$windows" -le 513 ]; then pass "memcpy windows: $windows (128 to 513)"
else fail "memcpy windows: $windows, expected 128 to 513"; fi
# The phase of a window's first call is its size - 1.  Starts drawn at
# random fall on about 64 (1 - (63/64)^windows) distinct phases (40 of 64,
# 63 of 256); a sampler whose stride shares a factor with 64 on 8 or fewer.
phases=$(awk '$1 == "window" { first = 1; next } $1 == "seq" && first { print $2; first = 0 }' "$dump" | sort -u | wc -l)
least=32
if [ "$phases" -ge "$least" ]; then pass "windows start at $phases distinct phases of the period (at least $least)"
else fail "windows start at only $phases distinct phases of the period of 64 (expected $least or more)"; fi
# Within a window memcpy's calls are consecutive: each size follows the one before (64 wraps to 1).
broken=$(awk '$1 == "window" { fn = $2; last = 0; next }
	$1 == "seq" && fn == "memcpy" { if (last && $2 != last % 64 + 1) bad++; last = $2 }
	END { print bad + 0 }' "$dump")
expect_eq "each memcpy window holds consecutive calls, in order" "$broken" 0
expect_eq "memcpy's recorded offsets and distance are the program's" \
	"$(awk '$1 == "window" { fn = $2 } $1 == "seq" && fn == "memcpy" { print $3 - $4, $5 % 4096 }' "$dump" | sort -u)" "16 16"
preloaded env MEMSHIM_DUMP="$dir/o.%p" MEMSHIM_SEQUENCES=8 "$program" overlap 20000
expect_match "memmove's windows keep the overlap: distance 8, size 100" \
	"$(awk '$1 == "window" { fn = $2 } $1 == "seq" && fn == "memmove" { print $2, $5 }' "$dir"/o.* | sort -u)" '^100 8$'
rm -f "$dir"/o.*
# With timed calls too: one countdown serves both, and neither loses its rate.
preloaded env MEMSHIM_DUMP="$dir/t.%p" MEMSHIM_SEQUENCES=on MEMSHIM_TIMING=16 "$program" period 320000
timed=$(awk '$1 == "timed" { n += $4 + $7 } END { print n + 0 }' "$dir"/t.*)
if [ "$timed" -ge 17000 ] && [ "$timed" -le 23000 ]; then pass "with MEMSHIM_TIMING=16 too: $timed of 320000 calls timed"
else fail "with MEMSHIM_TIMING=16 too: $timed of 320000 calls timed, expected about 20000"; fi
expect_match "with MEMSHIM_TIMING too: windows of 64" "$(grep -c '^window memcpy 64$' "$dir"/t.*)" '^[1-9][0-9]*$'
rm -f "$dir"/t.*
preloaded env MEMSHIM_DUMP="$dir/q.%p" "$program" period 1000
expect_eq "without MEMSHIM_SEQUENCES: no windows" "$(cat "$dir"/q.* | grep -c '^window')" 0
rm -f "$dir"/q.*

# ---- read, merged, refused ----
"$tool" merge -o "$scratch/m1" "$dump" >/dev/null 2>&1
expect_eq "merge keeps every window of one dump" "$(grep -E '^(sequences|window|seq)' "$scratch/m1")" \
	"$(grep -E '^(sequences|window|seq)' "$dump")"
"$tool" merge -o "$scratch/m2" "$dump" "$scratch/m1" >/dev/null 2>&1
expect_eq "a merge of two keeps the windows of both" "$(grep -c '^window' "$scratch/m2")" "$(grep -c '^window' "$dump" "$scratch/m1" | awk -F: '{ n += $2 } END { print n }')"
all=$(grep -c '^window' "$dump")
copies=$((4096 / all + 2)) # more windows than a merge keeps
set --
for i in $(seq "$copies"); do set -- "$@" "$scratch/m1"; done
"$tool" merge -o "$scratch/m4" "$@" >/dev/null 2>&1
merged=$(grep -c '^window' "$scratch/m4")
if [ "$merged" -le 4096 ] && [ "$merged" -ge 2048 ]; then pass "a merge of $((copies * all)) windows keeps $merged (at most 4096)"
else fail "a merge of $((copies * all)) windows keeps $merged, expected 2048 to 4096"; fi
expect_eq "those kept stand for twice the calls each" "$(awk '$1 == "sequences" { print $3 }' "$scratch/m4")" \
	"$(awk '$1 == "sequences" { print 2 * $3 }' "$dump")"
grep -v -E '^(sequences|window|seq) ' "$dump" | sed '1s/ 6$/ 5/' >"$scratch/v5"
"$tool" report "$scratch/v5" >/dev/null 2>"$scratch/err"
expect_eq "a version 5 dump (no windows) still reads" "$?:$(cat "$scratch/err")" "0:"
"$tool" merge -o "$scratch/m3" "$scratch/v5" "$dump" >/dev/null 2>&1
expect_eq "a merge of version 5 and 6 keeps the windows" "$(grep -c '^window' "$scratch/m3")" \
	"$(grep -c '^window' "$dump")"
refused() { # WHAT FILE REASON
	"$tool" report "$2" >/dev/null 2>"$scratch/err"
	expect_match "refused: $1" "$?:$(cat "$scratch/err")" "^1:.*$3"
}
awk '$1 == "seq" && !cut { cut = 1; next } { print }' "$dump" >"$scratch/short"
refused "a window short of a call" "$scratch/short" 'fewer seq lines'
sed '0,/^seq /s/^seq \([0-9]*\) [0-9]*/seq \1 5000/' "$dump" >"$scratch/offset"
refused "an offset of 4096 or more" "$scratch/offset" 'seq needs'
grep -v '^sequences ' "$dump" >"$scratch/nohead"
refused "a window before the sequences record" "$scratch/nohead" 'window before the sequences record'

# ---- bench --replay: one size repeated gives bench's fixed-size ratio ----
# Windows of 4096-byte copies at bench's fixed offsets (source 0,
# destination 2048 into its page, far apart).
{
	echo "memshim-histogram 7"
	echo "pid 1"
	echo "program synthetic"
	echo "reason exit"
	echo "entry memcpy 2048"
	echo "function memcpy"
	echo "bucket 4096 4608 2048 8388608"
	echo "sequences 64 1024"
	for w in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32; do
		echo "window memcpy 64"
		awk 'BEGIN { for (i = 0; i < 64; i++) print "seq 4096 2048 0 1050624" }'
	done
	echo "end"
} >"$scratch/synthetic"
# A replay and a fixed-size run for erms and scalar (whose ratios to glibc
# at 4 KiB are far from theirs at smaller sizes): their figures side by
# side, not judged (no test decides on a clock: a loaded machine moved the
# two apart).
"$tool" bench --replay "$scratch/synthetic" --functions memcpy --variants erms,scalar --rounds 9 >"$scratch/replay" 2>"$scratch/err"
status=$?
# "VARIANT LOW HIGH" from the L1 table's line for all calls, by the heading's names
awk '/replayed, data in L1/ { on = 1; next } on && $1 == "calls" { for (i = 3; i <= NF; i++) name[i - 2] = $i; next }
	on && /^all calls/ { for (v = 1; (v in name); v++) { split($(5 + 2 * v), b, "-"); print name[v], b[1], b[2] } exit }' \
	"$scratch/replay" >"$scratch/replays"
"$tool" bench --functions memcpy --variants erms,scalar --cases sweep --sizes 4096 --rounds 9 --csv "$scratch/sweep.csv" \
	>/dev/null 2>>"$scratch/err"
awk -F, '$3 == "sweep" && $6 == "L1" && $2 != "glibc" { print $2, $11 }' "$scratch/sweep.csv" >"$scratch/fixed"
expect_eq "bench --replay and the fixed case run" "$status:$(cat "$scratch/err")" "0:"
expect_eq "bench --replay: a line for all calls, each variant's interval" "$(awk '{ print $1 }' "$scratch/replays" | sort | uniq -c | awk '{ print $1, $2 }' | tr '\n' ' ')" "1 erms 1 scalar "
for v in erms scalar; do
	echo "figure: $v: replayed 4096 B copies $(awk -v v="$v" '$1 == v { printf "%s-%s", $2, $3 }' "$scratch/replays") against the fixed case $(awk -v v="$v" '$1 == v { printf "%s", $2 }' "$scratch/fixed")"
done

# ---- bad --replay input: one line, non-zero ----
for bad in "$scratch/none" "$scratch/short" "$scratch/v5" "$program"; do
	"$tool" bench --replay "$bad" --variants scalar --rounds 3 >/dev/null 2>"$scratch/err"
	expect_eq "bench --replay $(basename "$bad"): exit 1, one line" "$?:$(wc -l <"$scratch/err")" "1:1"
done
"$tool" bench --replay "$scratch/v5" >/dev/null 2>"$scratch/err"
expect_match "a dump without windows: record --sequences named" "$(cat "$scratch/err")" 'no windows of calls.*--sequences'
"$tool" bench --replay "$scratch/synthetic" --draws 5 >/dev/null 2>"$scratch/err"
expect_eq "bench --replay with --draws: usage error" "$?:$(wc -l <"$scratch/err")" "2:1"

# ---- tune --impl: from the replay, or from the histogram, and which ----
"$tool" tune --impl scalar "$scratch/synthetic" >"$scratch/out" 2>"$scratch/err"
expect_eq "tune --impl scalar runs" "$?:$(cat "$scratch/err")" "0:"
expect_match "tune --impl: from the replay" "$(cat "$scratch/out")" 'predicted ratio to glibc: [0-9.]+ \([0-9.]+ \.\. [0-9.]+\), from the replay'
expect_match "tune --impl names the bands and thresholds it runs with" "$(cat "$scratch/out")" \
	'runs as: memcpy scalar, memmove scalar, memset scalar'
"$tool" tune --impl glibc:1K,scalar "$scratch/synthetic" >"$scratch/out" 2>"$scratch/err"
expect_match "tune --impl takes bands" "$?:$(cat "$scratch/out")" 'runs as: memcpy glibc:1K,scalar'
"$tool" tune --impl "MEMSHIM_MEMCPY=scalar MEMSHIM_MOVSB_THRESHOLD=4K" "$scratch/synthetic" >"$scratch/out" 2>&1
expect_match "tune --impl takes an environment line" "$(cat "$scratch/out")" 'runs as: memcpy scalar, memmove'
expect_match "tune --impl takes an environment line's thresholds" "$(cat "$scratch/out")" 'thresholds: movsb 4 KiB,'
cal=$scratch/calibration
"$tool" tune --calibrate --tiny --calibration "$cal" >/dev/null 2>&1
"$tool" tune --impl scalar --calibration "$cal" "$scratch/v5" >"$scratch/out" 2>"$scratch/err"
expect_eq "tune --impl on a dump without windows runs" "$?:$(cat "$scratch/err")" "0:"
expect_match "without windows: says so" "$(cat "$scratch/out")" 'no windows of calls, so no replay'
expect_match "without windows: from the histogram" "$(cat "$scratch/out")" 'predicted ratio to glibc: [0-9.]+ .*from the histogram$'
"$tool" tune --impl scalar --basis histogram --calibration "$cal" "$scratch/synthetic" >"$scratch/out" 2>&1
expect_match "--basis histogram with windows: from the histogram" "$(cat "$scratch/out")" 'from the histogram$'
"$tool" tune --calibration "$cal" "$scratch/synthetic" >"$scratch/out" 2>"$scratch/err"
expect_eq "tune on a dump with windows runs" "$?:$(cat "$scratch/err")" "0:"
expect_match "tune replays its pick against the default" "$(cat "$scratch/out")" \
	"^Replayed on the dumps' 32 windows of calls: the model's pick takes [0-9.]+ \\([0-9.]+ \\.\\. [0-9.]+\\) of$"
"$tool" tune --impl scalar --basis replay "$scratch/v5" >/dev/null 2>"$scratch/err"
expect_eq "--basis replay without windows: exit 1, one line" "$?:$(wc -l <"$scratch/err")" "1:1"
"$tool" tune --impl scalar --placement cold "$scratch/synthetic" >"$scratch/out" 2>&1
expect_match "--placement cold: every class cold" "$(cat "$scratch/out")" 'windows of up to 64 calls \(every size class cold\)'
"$tool" tune --impl scalar --fenced "$scratch/synthetic" >"$scratch/out" 2>&1
expect_match "--fenced: each call fenced" "$?:$(cat "$scratch/out" | tr '\n' ' ')" '^0:.*each call fenced\).*predicted ratio to glibc: [0-9.]+ '
# Timed calls of glibc's functions place each class they cover; none, or
# timed calls of another variant, leave every class placed by its size.
expect_eq "no timed calls: no class placed by them" "$(grep -c 'placed by the timed calls' "$scratch/out")" 0
for ran in glibc scalar; do
	preloaded env MEMSHIM_IMPL=$ran MEMSHIM_DUMP="$dir/pt-$ran.%p" MEMSHIM_SEQUENCES=on MEMSHIM_TIMING=16 "$program" period 320000
	"$tool" tune --impl scalar --basis replay "$dir"/pt-$ran.* >"$scratch/out" 2>&1
	placed=$(grep -c 'of its calls placed by the timed calls' "$scratch/out")
	if [ $ran = glibc ]; then
		expect_match "timed calls under glibc: memcpy's classes placed by them" "$(cat "$scratch/out")" \
			'^  memcpy +[0-9.]+ \([0-9.]+ \.\. [0-9.]+\).*\(100\.0% of its calls placed by the timed calls\)$'
	else
		expect_eq "timed calls under $ran, not glibc: no class placed by them" "$placed" 0
	fi
done
rm -f "$dir"/pt-*
"$tool" tune --placement cold "$scratch/synthetic" >/dev/null 2>"$scratch/err"
expect_eq "--placement without --impl: exit 2, one line" "$?:$(wc -l <"$scratch/err")" "2:1"
"$tool" tune --impl nosuch "$scratch/synthetic" >/dev/null 2>"$scratch/err"
expect_eq "--impl nosuch: exit 2, one line" "$?:$(wc -l <"$scratch/err")" "2:1"

# ---- bad values ----
preloaded env MEMSHIM_DUMP="$dir/b.%p" MEMSHIM_SEQUENCES=2000 "$program" calls 1
expect_match "MEMSHIM_SEQUENCES=2000: one line" "$(printf '%s\n' "$err" | wc -l):$err" '^1:.*MEMSHIM_SEQUENCES.*no windows'
expect_eq "MEMSHIM_SEQUENCES=2000: no windows" "$(cat "$dir"/b.* | grep -c '^window')" 0
"$tool" record --sequences=0 -o "$scratch/r0" -- true >/dev/null 2>"$scratch/err"
expect_eq "record --sequences=0: usage error" "$?:$(wc -l <"$scratch/err")" "2:1"
"$tool" record --sequences=16 -o "$scratch/r" -- "$program" period 20000 >/dev/null 2>&1
expect_match "record --sequences=16: the merged dump has windows of 16" "$(grep '^sequences' "$scratch/r/merged")" '^sequences 16 '
finish
