#!/bin/sh
# memshim tune --calibrate: bounded memory whatever the caches, the progress
# line (on a terminal only), Ctrl-C, tune calibrating only when asked
# (--calibrate), a calibration that leaves the default of preloaded programs alone
# unless installed (--install), the variant choice in the calibration file (followed by the
# default, shown by memshim info) and the GLIBC_TUNABLES line.
# Checks behaviour and what is printed, never a timing.
. "${top_srcdir:-.}/tests/lib.sh"
tool=$T_MEMSHIM_TOOL
cpu=$("$tool" info | sed -n 's/^CPU: \([^,]*\), family \([0-9]*\) .*, model \([0-9]*\) .*/\1 \2 \3/p')

# ---- bounded working sets: pretend to have 300 MiB of L3 ----
# The cold cases used to walk 2 x L3 (600 MiB here); flushed, they need the
# largest call's buffers and at most MEASURE_COLD_SPAN_MAX (64 MiB).
# peak_kib COMMAND...: its status in $rc, its peak resident memory (KiB) in $kib.
peak_kib() {
	MEMSHIM_CACHE_SIZES=48K,2M,300M /usr/bin/time -f '%M' -o "$scratch/rss" "$@" >"$scratch/out" 2>"$scratch/err"
	rc=$?
	kib=$(tail -n 1 "$scratch/rss")
}
peak_kib "$tool" bench --cases class --functions memcpy --variants sse2 --rounds 3
expect_eq "bench with a 300 MiB L3 runs" "$rc" 0
expect_match "bench reports the pretended L3" "$(cat "$scratch/out")" 'L3 300M'
expect_match "bench's cold span is bounded" "$(cat "$scratch/out")" 'cold: spread over 64M'
expect_match "bench with a 300 MiB L3: peak memory under 256 MiB (was over 600)" "$kib" '^[0-9]+$'
[ "${kib:-999999}" -lt 262144 ] && pass "bench peak RSS ${kib} KiB < 256 MiB" || fail "bench peak RSS ${kib} KiB"
peak_kib "$tool" tune --calibrate --tiny --calibration "$scratch/big-l3"
expect_eq "tune --calibrate with a 300 MiB L3 runs" "$rc" 0
[ "${kib:-999999}" -lt 262144 ] && pass "calibration peak RSS ${kib} KiB < 256 MiB" || fail "calibration peak RSS ${kib} KiB"
MEMSHIM_CACHE_SIZES=lots "$tool" bench --cases sweep --sizes 64 --functions memcpy --variants sse2 --rounds 3 \
	>/dev/null 2>"$scratch/err"
expect_eq "a bad MEMSHIM_CACHE_SIZES: one line" "$(wc -l <"$scratch/err")" 1
expect_match "a bad MEMSHIM_CACHE_SIZES: says what it wants" "$(cat "$scratch/err")" 'MEMSHIM_CACHE_SIZES=.*L1D,L2,L3.*using the CPU'

# ---- the progress line: on a terminal only ----
script -qec "\"$tool\" tune --calibrate --tiny --calibration \"$scratch/tty-cal\"" /dev/null >"$scratch/tty" 2>&1
expect_match "on a terminal: a progress line" "$(cat "$scratch/tty")" 'memshim tune: calibrating: +[0-9]+% memcpy curves'
expect_eq "on a terminal: rewritten in place with \\r" "$(tr -cd '\r' <"$scratch/tty" | wc -c | tr -d ' ' | sed 's/^[1-9][0-9]*$/some/')" some
"$tool" tune --calibrate --tiny --calibration "$scratch/pipe-cal" >/dev/null 2>"$scratch/err"
expect_eq "not a terminal: nothing on stderr" "$(cat "$scratch/err")" ""

# ---- a masked variant's curves: its own up to 16 bytes, else its unmasked variant's ----
# curve_rows FN NAME FROM FILE: the lines of curve NAME of FN whose size is above FROM bytes.
curve_rows() {
	awk -v head="curve $1 $2" -v from="$3" '
		left > 0 { left--; if ($1 + 0 > from) print; next }
		$1 " " $2 " " $3 == head && NF == 4 { left = $4 }' "$4"
}
if "$tool" info | grep -Eq '^  avx512_mask +usable'; then
	for suffix in "" :nt :cold :nt:cold; do
		mask=$(curve_rows memcpy "avx512_mask$suffix" 16 "$scratch/pipe-cal")
		expect_match "memcpy avx512_mask$suffix has lines above 16 B" "$mask" '^[0-9]'
		expect_eq "memcpy avx512_mask$suffix above 16 B is avx512$suffix's" "$mask" \
			"$(curve_rows memcpy "avx512$suffix" 16 "$scratch/pipe-cal")"
		expect_eq "memset avx512_mask$suffix is avx512$suffix's at every size" \
			"$(curve_rows memset "avx512_mask$suffix" -1 "$scratch/pipe-cal")" \
			"$(curve_rows memset "avx512$suffix" -1 "$scratch/pipe-cal")"
	done
	expect_eq "memcpy avx512_mask up to 16 B: timed, not avx512's" \
		"$(curve_rows memcpy avx512_mask -1 "$scratch/pipe-cal" | head -n 1 | grep -cxF "$(curve_rows memcpy avx512 -1 "$scratch/pipe-cal" | head -n 1)")" 0
else
	skip "a masked variant's curves: this CPU runs no avx512_mask (AVX-512BW/VL, BMI2)"
fi
script -qec "\"$tool\" bench --cases sweep --sizes 64 --functions memcpy --variants sse2 --rounds 3" /dev/null >"$scratch/tty" 2>&1
expect_match "bench on a terminal: a progress line" "$(cat "$scratch/tty")" 'memshim bench( \(process 1 of 3\))?: +[0-9]+% memcpy sweep 64'

# ---- a busy machine is named ----
# Two loops keep two CPUs busy beside the calibration (for a minute at
# most, should this script die first): it counts that from /proc/stat, not
# from itself, and says so.
busy_pids=
for i in 1 2; do
	timeout 60 sh -c 'while :; do :; done' &
	busy_pids="$busy_pids $!"
done
"$tool" tune --calibrate --tiny --calibration "$scratch/busy-cal" >"$scratch/busy" 2>&1
# shellcheck disable=SC2086 # the pids are words
kill $busy_pids
wait $busy_pids 2>/dev/null
expect_match "other work beside the calibration is named" "$(cat "$scratch/busy")" \
	'^  the machine was busy: other work kept [0-9.]+ CPUs of [0-9]+ busy while it measured, so its$'

# ---- Ctrl-C: the old file stays, no temporary file is left ----
cp "$scratch/pipe-cal" "$scratch/keep"
for sig in INT TERM; do
	"$tool" tune --calibrate --quick --calibration "$scratch/pipe-cal" >/dev/null 2>&1 &
	pid=$!
	sleep 1
	kill -s "$sig" "$pid"
	wait "$pid" 2>/dev/null
	rc=$?
	[ "$rc" -gt 128 ] && pass "SIG$sig stops the calibration (status $rc)" || fail "SIG$sig: status $rc"
	cmp -s "$scratch/keep" "$scratch/pipe-cal" && pass "SIG$sig: the old calibration file is intact" ||
		fail "SIG$sig: the old calibration file changed"
	expect_eq "SIG$sig: no temporary file left" "$(ls "$scratch" | grep -c '\.tmp$')" 0
done

# ---- tune on a machine without a calibration file ----
# It calibrates only when asked, on a terminal too: one line says how.
preloaded env MEMSHIM_DUMP="$scratch/h.%p" "$top_builddir/tests/hist_program" calls 200
asks="^memshim tune: no calibration at $scratch/fresh/memshim/calibration.measured; measure one with memshim tune --calibrate \(10-45 s; --quick: about 10 s\), then run this again\$"
env XDG_CACHE_HOME="$scratch/fresh" "$tool" tune --tiny "$scratch"/h.* >"$scratch/out" 2>"$scratch/err"
expect_eq "tune without a calibration file: status 1" "$?" 1
expect_eq "it says so, in one line" "$(wc -l <"$scratch/err")" 1
expect_match "the line says how to calibrate" "$(cat "$scratch/err")" "$asks"
script -qec "env XDG_CACHE_HOME=\"$scratch/fresh\" \"$tool\" tune --tiny $(ls "$scratch"/h.* | tr '\n' ' ')" /dev/null >"$scratch/tty" 2>&1
expect_eq "on a terminal: status 1 too" "$?" 1
expect_match "on a terminal: the same line" "$(tr -d '\r' <"$scratch/tty")" "$asks"
expect_eq "no file is written" "$(ls "$scratch/fresh" 2>/dev/null | wc -l)" 0
env XDG_CACHE_HOME="$scratch/fresh" "$tool" tune --calibrate --tiny >/dev/null 2>&1
env XDG_CACHE_HOME="$scratch/fresh" "$tool" tune --tiny "$scratch"/h.* >"$scratch/out" 2>"$scratch/err"
expect_eq "once calibrated (--calibrate): it predicts" "$?:$(grep -cE '^(Best setting:|The model.s pick)' "$scratch/out")" 0:1
expect_eq "reading the file silently" "$(cat "$scratch/err")" ""
expect_eq "the calibration went beside the default file, not into it" "$(ls "$scratch/fresh/memshim")" \
	"calibration.measured"

# ---- consent: --calibrate leaves every preloaded program's default alone, --install changes it ----
cons=$scratch/consent
in_cons() { env XDG_CACHE_HOME="$cons" "$@"; }
source_line() { in_cons "$tool" info | grep '^Default source:'; }
preloaded env XDG_CACHE_HOME="$cons" MEMSHIM_VERBOSE=1 /bin/true
default_before=$err source_before=$(source_line)
expect_match "info: where the default comes from, without a calibration" "$source_before" \
	"^Default source: (the shipped CPU row [a-z0-9-]+\.row|glibc's own functions \(no calibration file, no row for this CPU class\)) \(no calibration file installed at $cons/memshim/calibration\)\$"
in_cons "$tool" tune --calibrate --tiny >"$scratch/said" 2>&1
expect_eq "--calibrate: status 0" "$?" 0
expect_eq "--calibrate: the default file is not written" "$(ls "$cons/memshim")" "calibration.measured"
preloaded env XDG_CACHE_HOME="$cons" MEMSHIM_VERBOSE=1 /bin/true
expect_eq "--calibrate: a preloaded program's default is the same as before" "$err" "$default_before"
expect_eq "--calibrate: info names the same source" "$(source_line)" "$source_before"
expect_match "--calibrate: says who reads the file, and that the default is unchanged" "$(cat "$scratch/said")" \
	'^  only tune and the programs that ask read it \(MEMSHIM_CALIBRATION=FILE\); the default of$'
expect_match "--calibrate: and how to make it the default" "$(cat "$scratch/said")" \
	'^  memshim tune --calibrate --install makes this calibration the default$'
in_cons "$tool" tune --calibrate --tiny --install >"$scratch/said" 2>&1
expect_eq "--install: status 0" "$?" 0
expect_match "--install: says the default is now the file's" "$(cat "$scratch/said")" \
	'^  installed: every program started with libmemshim.so preloaded from now on has$'
expect_eq "--install: info names the file" "$(source_line)" \
	"Default source: the calibration file $cons/memshim/calibration (installed by memshim tune --calibrate --install)"
preloaded env XDG_CACHE_HOME="$cons" MEMSHIM_VERBOSE=1 /bin/true
expect_match "--install: a preloaded program's default is the file's" "$err" '\[calibration file'
expect_eq "--install without --calibrate: status 2" "$(in_cons "$tool" tune --install "$scratch"/h.* >/dev/null 2>&1; echo $?)" 2
expect_eq "--install with --calibration: status 2" \
	"$(in_cons "$tool" tune --calibrate --install --calibration "$scratch/x" >/dev/null 2>&1; echo $?)" 2
source_named=$(env MEMSHIM_CALIBRATION="$cons/memshim/calibration.measured" "$tool" info | grep '^Default source:')
expect_eq "MEMSHIM_CALIBRATION=FILE: info names the file and why" "$source_named" \
	"Default source: the calibration file $cons/memshim/calibration.measured (MEMSHIM_CALIBRATION names it)"

# ---- the file's choice: the default follows it, memshim info says why ----
write_cal() { # VERSION MEMCPY MEMMOVE MEMSET
	printf 'memshim-calibration %s\ncpu %s\nauto_movsb 4096\nauto_stosb 8192\nnt 33554432\n' "$1" "$cpu"
	[ "$1" = 1 ] || printf 'choice memcpy %s chosen by hand A\nchoice memmove %s chosen by hand B\nchoice memset %s chosen by hand C\n' "$2" "$3" "$4"
	printf 'unit ns\nclock by hand\nrounds 1\nend\n'
}
write_cal 2 scalar movsq glibc >"$scratch/hand"
env MEMSHIM_CALIBRATION="$scratch/hand" "$tool" info >"$scratch/out" 2>"$scratch/err"
expect_eq "a hand-written file: no warning" "$(cat "$scratch/err")" ""
expect_match "info: memcpy from the file, which file, why" "$(cat "$scratch/out")" \
	"^  memcpy -> scalar \\[calibration file \"$scratch/hand\": chosen by hand A\\]"
expect_match "info: memmove from the file" "$(cat "$scratch/out")" "^  memmove -> movsq \\[calibration file .*: chosen by hand B\\]"
expect_match "info: memset from the file" "$(cat "$scratch/out")" "^  memset -> glibc \\[calibration file .*: chosen by hand C\\]"
expect_match "info: the default's line follows the file" "$(cat "$scratch/out")" '^  default +memcpy scalar, memmove movsq, memset glibc'
preloaded env MEMSHIM_CALIBRATION="$scratch/hand" "$top_builddir/tests/show_binding_now"
expect_eq "a program's memcpy is the file's choice" "$(bound memcpy)" memshim_memcpy_scalar
expect_eq "a program's memmove is the file's choice" "$(bound memmove)" memshim_memmove_movsq
preloaded env MEMSHIM_CALIBRATION="$scratch/hand" MEMSHIM_IMPL=fsrm "$top_builddir/tests/show_binding_now"
expect_eq "MEMSHIM_IMPL overrides the file" "$(bound memcpy)" memshim_memcpy_fsrm
preloaded env MEMSHIM_CALIBRATION="$scratch/hand" MEMSHIM_IMPL=default "$top_builddir/tests/show_binding_now"
expect_eq "MEMSHIM_IMPL=default is the file's choice too" "$(bound memcpy)" memshim_memcpy_scalar
# A reason as long as the calibration writes (199 characters), from a file
# with a long path, comes whole through info and MEMSHIM_VERBOSE: never cut
# mid-word.  The Presets line gives each function its own reason.
long_why="glibc at every size: in no size class did a variant beat it by the margin without losing to it in a placement; then some more words to make it as long as a choice line may be, in all a hundred and 99"
[ ${#long_why} = 199 ] || fail "the long reason is ${#long_why} characters, not 199"
long_dir=$scratch/a-directory-with-a-rather-long-name-as-a-cache-may-have/and-another-level-below-it
mkdir -p "$long_dir"
write_cal 2 scalar movsq glibc | sed "s/chosen by hand A\$/$long_why/" >"$long_dir/calibration"
env MEMSHIM_CALIBRATION="$long_dir/calibration" "$tool" info >"$scratch/out" 2>"$scratch/err"
expect_eq "info: a 199-character reason, whole" "$(grep -c -F "$long_why]" "$scratch/out")" 1
expect_eq "info's Presets line: each function's own reason, under it" \
	"$(grep -A3 '^  default ' "$scratch/out" | sed 's|calibration file "[^"]*"|calibration file P|')" \
	"  default  memcpy scalar, memmove movsq, memset glibc
           memcpy: calibration file P: $long_why
           memmove: calibration file P: chosen by hand B
           memset: calibration file P: chosen by hand C"
preloaded env MEMSHIM_CALIBRATION="$long_dir/calibration" MEMSHIM_VERBOSE=1 /bin/true
expect_eq "MEMSHIM_VERBOSE: the same reason, whole" "$(printf '%s\n' "$err" | grep -c -F "$long_why]")" 1
write_cal 1 >"$scratch/v1"
preloaded env MEMSHIM_CALIBRATION="$scratch/v1" MEMSHIM_VERBOSE=1 /bin/true
expect_match "a version 1 file, with the old keys (auto_movsb, auto_stosb): its thresholds are read" "$err" ' stosb 8192 B \[calibration file\]'
expect_eq "a version 1 file: no warning" "$(printf '%s\n' "$err" | grep -vc -e '-> ' -e 'thresholds:')" 0
env MEMSHIM_CALIBRATION="$scratch/v1" "$tool" info >"$scratch/out"
expect_eq "a version 1 file: the built-in default variants" "$(grep -c 'calibration file ".*v1":' "$scratch/out")" 0
write_cal 2 nosuchvariant movsq glibc >"$scratch/bad-choice"
preloaded env MEMSHIM_CALIBRATION="$scratch/bad-choice" MEMSHIM_VERBOSE=1 /bin/true
expect_eq "an unknown variant in the file: one warning" "$(printf '%s\n' "$err" | grep -c '^memshim: calibration file .*names bands this memshim or CPU cannot run')" 1
expect_match "an unknown variant in the file: built-in thresholds" "$err" ' stosb [0-9]+ B \[(built-in|CPU row)\]'
"$tool" tune --calibration "$scratch/hand" "$scratch"/h.* >/dev/null 2>"$scratch/err"
expect_eq "tune reads a version 2 file it did not write" "$?:$(cat "$scratch/err")" "0:"
sed 's/^choice memmove movsq /choice memmove/' "$scratch/hand" >"$scratch/cut-choice"
"$tool" tune --calibration "$scratch/cut-choice" "$scratch"/h.* >/dev/null 2>"$scratch/err"
expect_match "tune on a malformed choice line: says which line" "$(cat "$scratch/err")" 'cut-choice line 7 is not'
preloaded env MEMSHIM_CALIBRATION="$scratch/cut-choice" MEMSHIM_VERBOSE=1 /bin/true
expect_match "the library on a malformed choice line: one warning" "$err" 'calibration file .*line 7: expected choice memmove'
expect_eq "the library on a malformed choice line: the program runs" "$rc" 0

# ---- the GLIBC_TUNABLES line ----
# Curves by hand: the vectors (avx2, or sse2 on a CPU without AVX2)
# cheapest below 4 KiB, rep movsb/stosb (fsrm) above, non-temporal stores
# dearer everywhere: the best setting is that width's _erms variant, with a rep
# band, glibc's own shape, so its thresholds are glibc tunables.  (A CPU
# without ERMS runs no such variant.)
usable() { "$tool" info | awk -v v="$1" '$1 == v && NF > 2 { print $2 }'; }
width=avx2
[ "$(usable avx2)" = usable ] || width=sse2
curve() { # FN NAME A B: cost A + size / B at a few sizes
	printf 'curve %s %s 5\n' "$1" "$2"
	for size in 0 1024 4096 65536 1048576; do
		printf '%s %s\n' "$size" "$(awk -v s="$size" -v a="$3" -v b="$4" 'BEGIN { printf "%.3f", a + s / b }')"
	done
}
{
	write_cal 2 glibc glibc glibc | sed '/^end$/d'
	for fn in memcpy memmove memset; do
		curve "$fn" glibc 40 10
		curve "$fn" $width 5 10
		curve "$fn" $width:nt 50 5
		curve "$fn" fsrm 20 100
	done
	echo end
} >"$scratch/curves"
# A row that measured no 4 KiB aliasing: what the curves say decides, not
# what this CPU's shipped row charges a rep range (tests/test_tune.sh has that).
echo "memshim-cpu-row 1" >"$scratch/no-alias.row"
MEMSHIM_CPU_ROW=$scratch/no-alias.row "$tool" tune --calibration "$scratch/curves" "$scratch"/h.* >"$scratch/out" \
	2>"$scratch/err"
expect_eq "tune on hand-made curves runs" "$?:$(cat "$scratch/err")" "0:"
env_line=$(grep '^MEMSHIM_' "$scratch/out")
glibc_line=$(grep '^GLIBC_TUNABLES=' "$scratch/out")
if [ "$(usable ${width}_erms)" != usable ]; then
	skip "the GLIBC_TUNABLES line of a vector setting with a rep range: this CPU runs no ${width}_erms (no ERMS)"
else
	expect_match "the best setting is a vector variant with a rep range" "$env_line" "${width}_erms"
	expect_match "a GLIBC_TUNABLES line" "$glibc_line" \
		'^GLIBC_TUNABLES=glibc\.cpu\.x86_rep_movsb_threshold=[0-9]+:glibc\.cpu\.x86_rep_stosb_threshold=[0-9]+:glibc\.cpu\.x86_non_temporal_threshold=[0-9]+$'
	movsb=$(printf '%s\n' "$env_line" | tr ' ' '\n' | sed -n 's/^MEMSHIM_MOVSB_THRESHOLD=//p')
	expect_match "its rep movsb threshold is the setting's (or glibc's least, 512)" "$glibc_line" \
		"x86_rep_movsb_threshold=$([ "${movsb:-0}" -lt 512 ] && echo 512 || echo "$movsb"):"
	listed=$(env "$glibc_line" /lib64/ld-linux-x86-64.so.2 --list-tunables 2>/dev/null | grep x86_rep_movsb_threshold)
	if [ -n "$listed" ]; then
		expect_match "glibc takes the line" "$listed" \
			"$(printf '0x%x' "$(printf '%s\n' "$glibc_line" | sed 's/.*x86_rep_movsb_threshold=\([0-9]*\).*/\1/')")"
	else
		skip "glibc takes the GLIBC_TUNABLES line: ld.so --list-tunables lists no x86_rep_movsb_threshold"
	fi
fi
awk '
	/^curve / { name = $3 } /^[0-9]/ && name == "glibc" { $2 = $2 / 100 } { print }' "$scratch/curves" >"$scratch/glibc-best"
"$tool" tune --calibration "$scratch/glibc-best" "$scratch"/h.* >"$scratch/out" 2>&1
expect_match "where glibc is best" "$(grep '^MEMSHIM_' "$scratch/out")" '^MEMSHIM_IMPL=glibc$'
expect_eq "where glibc is best: no GLIBC_TUNABLES line" "$(grep -c '^GLIBC_TUNABLES' "$scratch/out")" 0
sed "s/^choice memcpy glibc /choice memcpy $width /" "$scratch/glibc-best" >"$scratch/chose-slower"
"$tool" tune --calibration "$scratch/chose-slower" "$scratch"/h.* >"$scratch/out" 2>&1
expect_match "the calibration's choice ranked slower than glibc for these calls: said beside the ranking" \
	"$(cat "$scratch/out")" "note: the calibration chose $width as memcpy's default; for these calls it ranks
  [0-9.]+% slower than glibc"

# ---- tune --calibrate on copies at a near 4 KiB-aliasing distance ----
# Where the CPU's row measured rep movsb slow there (Zen 3), tune says
# whether the default avoids it: the default its saving is against (after
# --calibrate, the new file's), not the one before it.  hist_program copies
# 4 KiB 16 bytes past its source.
MEMSHIM_DUMP="$scratch/alias.%p" LD_PRELOAD=$MEMSHIM_LIBRARY "$top_builddir/tests/hist_program" calls 50 >/dev/null
env MEMSHIM_CALIBRATION="$scratch/alias-cal" "$tool" tune --calibrate --tiny --calibration "$scratch/alias-cal" \
	"$scratch"/alias.* >"$scratch/out" 2>&1
here=$(sed -n 's/^  the default here (\(.*\) from 2 KiB) .*/\1/p' "$scratch/out" | head -n 1)
# the variants of memcpy's default bands that serve copies from 2 KiB
against=$(sed -n 's/^  against the default (memcpy \([^ ]*\), memmove .*/\1/p' "$scratch/out" | awk -F, '{
	out = ""
	for (i = 1; i <= NF; i++) {
		n = split($i, part, ":"); bytes = part[2]
		if (bytes ~ /K$/) bytes *= 1024; else if (bytes ~ /M$/) bytes *= 1048576
		if (n == 1 || bytes >= 2048) out = out (out == "" ? "" : ", ") part[1]
	}
	print out }')
if [ -n "$here" ]; then
	expect_eq "tune --calibrate: the aliasing hazard's default is the one the saving is against" "$here" "$against"
else
	skip "the aliasing hazard's default in tune: this CPU's row does not measure rep movsb slow at a near distance"
fi
finish
