#!/bin/sh
# memshim tune end to end with a tiny calibration (--tiny: a few seconds),
# the calibration file as the library reads it, and bad arguments.  Checks
# what is printed and parsed, never a timing.
. "${top_srcdir:-.}/tests/lib.sh"
tool=$T_MEMSHIM_TOOL
cal=$scratch/calibration
tune() { "$tool" tune "$@" >"$scratch/out" 2>"$scratch/err"; rc=$?; }

tune --calibrate --tiny --calibration "$cal"
expect_eq "tune --calibrate runs" "$rc" 0
expect_eq "tune --calibrate: nothing on stderr" "$(cat "$scratch/err")" ""
expect_eq "the file starts with the library's part" "$(sed -n '1p;3p;4p;5p' "$cal" | cut -d' ' -f1 | tr '\n' ' ')" \
	"memshim-calibration movsb stosb nt "
expect_match "the file ends with end" "$(tail -n 1 "$cal")" '^end$'
# The rule the calibration states is the man page's: one variant within
# 1.03x of glibc everywhere, else bands that beat glibc by more than 5%.
man=${top_srcdir:-.}/doc/memshim.1
expect_match "the calibration states the one-variant rule" "$(tr '\n' ' ' <"$scratch/out")" \
	'at most 1\.03x glibc.s time in +every size class and on the fleet distribution, in every placement'
expect_match "and the bands' rule" "$(tr '\n' ' ' <"$scratch/out")" 'the variant that loses in no placement, if it beats glibc by more than 5%'
expect_eq "the man page states both" \
	"$(tr '\n' ' ' <"$man" | grep -c 'at most 1\.03 times glibc.s time in every size class.*if it *beats glibc by more than 5%')" 1

preloaded env MEMSHIM_DUMP="$scratch/h.%p" "$top_builddir/tests/hist_program" calls 200
tune --calibration "$cal" "$scratch"/h.*
expect_eq "tune on a dump runs" "$rc" 0
# The line is the best setting, or indented under "No best setting" where
# the tiny calibration's rounds spread across zero.
line=$(sed -n '/^Best setting:$/{n;p}; /^The model.s pick, no suggestion/{n;s/^  //p}' "$scratch/out")
expect_match "tune prints an environment line" "$line" '^MEMSHIM_[A-Z_]+=[a-z0-9_]+( MEMSHIM_[A-Z_]+=[a-z0-9_]+)*$'
variants=$("$tool" info | awk '/^Variants:/ { on = 1; next } /^Presets/ { on = 0 } on { print $1 }')
bad=""
for word in $line; do
	case ${word%%=*} in
	MEMSHIM_IMPL | MEMSHIM_MEMCPY | MEMSHIM_MEMMOVE | MEMSHIM_MEMSET)
		printf '%s\n' "$variants" | grep -qx "${word#*=}" || bad="$bad $word" ;;
	*_THRESHOLD) expr "${word#*=}" : '[0-9][0-9]*$' >/dev/null || bad="$bad $word" ;;
	*) bad="$bad $word" ;;
	esac
done
expect_eq "every word names a real variant or a number" "$bad" ""
# shellcheck disable=SC2086 # the line is words
env $line "$tool" info >/dev/null 2>"$scratch/err"
expect_eq "the library accepts the line without a warning" "$(cat "$scratch/err")" ""
expect_match "the prediction is against the default and glibc" "$(sed -n '/^  against glibc: /{n;p}' "$scratch/out")" '^    saving .*p10\.\.p90'
expect_match "no profile: the share of CPU time is unknown, and how to know it" "$(cat "$scratch/out")" \
	'share of the program.s CPU time: unknown \(the dumps carry no profile\)$'
expect_match "no profile: the check says it has no measurement" "$(cat "$scratch/out")" \
	'no measurement: the dumps carry no profile.  Record with MEMSHIM_PROFILE=1 beside$'

# tune checks itself against a profile: hand-made dumps of CALLS memcpy
# calls of 100 B under glibc, NS ns of them measured in SAMPLES samples
# (1000 Hz), in a program of 20 s of CPU time.
profiled() { # NAME CALLS SAMPLES NS [SIZE LO HI: the calls' size and bucket; 100 B]
	size=${5:-100} lo=${6:-96} hi=${7:-104}
	printf '%s\n' "memshim-histogram 2" "pid 1" "program fake" "reason exit" "variant memcpy glibc" \
		"function memcpy" "bucket $lo $hi $2 $(($2 * size))" \
		"profile 1000 20000 20000000000 20000000000 20000000000 0" \
		"function memcpy" "cpu $lo $hi $3 $4" "end" >"$scratch/$1.hist"
	tune --calibration "$cal" "$scratch/$1.hist"
}
profiled above 1000000 15000 15000000000
expect_match "measured far above the prediction: said, with the likely reason" "$(cat "$scratch/out")" \
	'they disagree: measured is [0-9]+x the prediction'
expect_match "measured far above: the data was probably cold" "$(cat "$scratch/out")" 'the data was probably cold: the model assumes buffers in the cache'
expect_match "a saving as a share of the program's CPU time" "$(cat "$scratch/out")" \
	'^    (saves|costs) about [0-9.]+ (ns|us|ms|s) of 20 s of CPU time \([0-9.e-]+%\)$|^    saves nothing of 20 s of CPU time$'
expect_match "against glibc: a saving in time and share" "$(sed -n '/against glibc/{n;n;p}' "$scratch/out")" \
	'^    (saves about [0-9.]+ (ns|us|ms|s) of 20 s of CPU time \([0-9.e-]+%\)|saves nothing of 20 s of CPU time)$'
profiled below 100000000 2 2000000
expect_match "measured far below the prediction: said" "$(cat "$scratch/out")" 'they disagree: measured is 0\.[0-9]+x the prediction'
expect_match "measured far below: the sizes were probably predictable" "$(cat "$scratch/out")" \
	'the sizes were probably predictable: the model.s curves are for sizes drawn at random'
profiled one 100000000 1 1000000
expect_match "one sample: said so" "$(grep '^  memcpy (glibc): predicted' "$scratch/out")" ', 1 sample\)$'
# The same calls measured at what the model predicts: agreement.
predicted=$(sed -n 's/^  memcpy (glibc): predicted \([0-9.]*\) \([a-z]*\) .*/\1 \2/p' "$scratch/out" |
	awk '{ print int($1 * ($2 == "s" ? 1e9 : $2 == "ms" ? 1e6 : $2 == "us" ? 1e3 : 1)) }')
profiled agree 100000000 $((predicted / 1000000)) "$predicted"
expect_match "measured at the prediction: they agree" "$(cat "$scratch/out")" '^    they agree within the ranges$'
# Copies of 4 KiB measured far below: their curves hold the read-back.
profiled below_large 10000000 2 2000000 4096 4096 4608
expect_match "measured far below for 4 KiB copies: said" "$(cat "$scratch/out")" 'they disagree: measured is 0\.[0-9]+x the prediction'
expect_match "measured far below for 4 KiB copies: the read-back is the reason" "$(cat "$scratch/out")" \
	'most of the predicted time is in copies of 512 B or more, whose curves hold a read of the'

# Every figure tune prints lies inside its own p10..p90.  By-hand curves
# whose cheap rounds differ by size: summed over the median curves, scalar
# would save 10% against glibc, outside the rounds' own savings (50%, 50%,
# 10%: p10..p90 18% .. 50%), as "saving 2.8% (p10..p90 ...: 3.6% .. 30.2%)"
# once did.
{
	printf 'memshim-calibration 1\n%s\nauto_movsb 4096\nauto_stosb 4096\nnt 33554432\n' "$(grep '^cpu ' "$cal")"
	printf 'unit ns\nclock by hand\nrounds 3\n'
	printf 'curve memcpy glibc 2\n100 10 10 10\n200 10 10 10\ncurve memcpy scalar 2\n100 1 9 9\n200 9 1 9\n'
	for curve in sse2 sse2:nt fsrm; do printf 'curve memcpy %s 2\n100 20 20 20\n200 20 20 20\n' "$curve"; done
	echo end
} >"$scratch/mixed-rounds"
printf '%s\n' "memshim-histogram 2" "pid 1" "program fake" "reason exit" "variant memcpy glibc" \
	"function memcpy" "bucket 96 104 1000 100000" "bucket 192 208 1000 200000" "end" >"$scratch/two.hist"
tune --calibration "$scratch/mixed-rounds" "$scratch/two.hist"
expect_eq "tune on curves of mixed rounds runs" "$rc:$(cat "$scratch/err")" "0:"
# inside LABEL LINES: each line "estimate low high" (in one unit) has low <= estimate <= high
inside() {
	expect_match "$1: there are some" "$2" '[0-9]'
	expect_eq "$1: each estimate lies within its p10..p90" \
		"$(printf '%s\n' "$2" | awk 'NF == 3 && !($2 <= $1 && $1 <= $3) { print "outside:", $0 }')" ""
}
in_ns() { awk '{ for (i = 1; i <= NF; i += 2) printf "%s%s", $i * ($(i + 1) == "s" ? 1e9 : $(i + 1) == "ms" ? 1e6 : $(i + 1) == "us" ? 1e3 : 1), i + 2 <= NF ? " " : "\n" }'; }
number='(-?[0-9.]+)'
inside "the savings" "$(sed -En "s/^ +saving $number% \(p10\.\.p90 over the 3 calibration rounds: $number% \.\. $number%\)$/\1 \2 \3/p" "$scratch/out")"
inside "the best setting's prediction" "$(sed -En "s/^Predicted: $number (n?s|[mu]s) in these functions \(p10\.\.p90 over the 3 calibration rounds: $number (n?s|[mu]s) \.\. $number (n?s|[mu]s)\)$/\1 \2 \3 \4 \5 \6/p" "$scratch/out" | in_ns)"
inside "the ranking against glibc" "$(sed -En "s/^  [a-z0-9_]+ +\+?$number% +\+?$number% \.\. \+?$number% .*/\1 \2 \3/p" "$scratch/out")"
expect_match "scalar saves the middle round's 50%" "$(cat "$scratch/out")" '^    saving 50\.0% \(p10\.\.p90 over the 3 calibration rounds: 18\.0% \.\. 50\.0%\)$'
expect_match "times are in us, not ns" "$(cat "$scratch/out")" '^Predicted: 10 us in these functions .*: 10 us \.\. 16 us\)$'
expect_match "sizes as report prints them" "$(cat "$scratch/out")" '^memcpy: 2000 calls, 293 KiB; predicted time in memcpy'

# No best setting where the rounds' savings span zero, or where the
# dumps' own measurements (timed calls, profile) find the model more than
# 2x off where the time is; instead, what to measure.  The same calls timed
# at the model's 10 ns: a best setting.
with_timed() { # NAME NS: two.hist's calls timed at NS ns each
	printf '%s\n' "memshim-histogram 3" "pid 1" "program fake" "reason exit" "variant memcpy glibc" "function memcpy" \
		"bucket 96 104 1000 100000" "bucket 192 208 1000 200000" "timing 64 2600000000 15000 monotonic" \
		"function memcpy" "timed 96 104 100 $((100 * $2)) $((100 * $2 * $2)) 0" \
		"timed 192 208 100 $((100 * $2)) $((100 * $2 * $2)) 0" "end" >"$scratch/$1.hist"
}
# The default here: glibc, from a calibration file's choices (as below).
sed -e 's/^memshim-calibration 1$/memshim-calibration 2/' \
	-e '/^nt /a choice memcpy glibc by hand\nchoice memmove glibc by hand\nchoice memset glibc by hand' \
	"$scratch/mixed-rounds" >"$scratch/glibc-default"
tune() { env MEMSHIM_CALIBRATION="$scratch/glibc-default" "$tool" tune "$@" >"$scratch/out" 2>"$scratch/err"; rc=$?; }
with_timed agree 10
tune --calibration "$scratch/mixed-rounds" "$scratch/agree.hist"
expect_match "timed at the model's time: a best setting" "$(sed -n '/^Best setting:$/{n;p}' "$scratch/out")" '^MEMSHIM_MEMCPY=scalar$'
# A pick whose calibration reads a loss where copies up to 64 B are cold is
# said to pay only where the program's small copies are in the L1 or L2, with how to
# find out where the dumps cannot tell.
cells=$(awk 'BEGIN { for (i = 0; i < 40; i++) printf " %s", i == 7 ? "1.10" : "1" }') # 17-64 B cold
sed -e 's/^memshim-calibration 1$/memshim-calibration 3/' \
	-e '/^nt /a choice memcpy glibc by hand\nchoice memmove glibc by hand\nchoice memset glibc by hand' \
	-e "/^rounds /a ratios memcpy scalar$cells" "$scratch/mixed-rounds" >"$scratch/cold-loss"
tune --calibration "$scratch/cold-loss" "$scratch/agree.hist"
expect_match "a pick that loses cold at 17-64 B: said" "$(tr '\n' ' ' <"$scratch/out")" \
	'memcpy: scalar loses to glibc where copies up to 64 B are not in the L1 or L2 \(the +calibration read 1\.10x at 17-64 B, data cold\): it pays only where this program.s small copies are in them; +the dumps hold no windows of calls to replay; record with --sequences and --timing'
tune --calibration "$scratch/mixed-rounds" "$scratch/agree.hist"
expect_eq "a pick without such a loss: nothing said" "$(grep -c 'loses to glibc where copies up to 64 B' "$scratch/out")" 0
with_timed off 30
tune --calibration "$scratch/mixed-rounds" "$scratch/off.hist"
expect_match "timed at 3x the model: no best setting, and why" "$(cat "$scratch/out")" \
	'^No best setting: the check below measured the model more than 2x off where the time is \(memcpy: its timed calls are more than 2x off the model in size classes holding 100% of its timed time\)\.$'
expect_eq "timed at 3x the model: no environment line of its own" "$(grep -c '^MEMSHIM_\|^Best setting' "$scratch/out")" 0
expect_match "timed at 3x the model: the measurement to make" "$(cat "$scratch/out")" \
	"^  measure it in one run: memshim ab --in-process --impl glibc --env 'MEMSHIM_MEMCPY=scalar' -- fake "
expect_match "... with the model's B/A beside it, to read that run against" "$(cat "$scratch/out")" \
	'^  "all" lines: all [0-9.]+ \([0-9.]+\.\.[0-9.]+\), memcpy [0-9.]+ \([0-9.]+\.\.[0-9.]+\)$'
printf '%s\n' "memshim-histogram 2" "pid 1" "program fake" "reason exit" "variant memcpy glibc" "function memcpy" \
	"bucket 96 104 1000 100000" "bucket 192 208 1000 200000" "profile 1000 20000 20000000000 20000000000 20000000000 0" \
	"function memcpy" "cpu 96 104 15000 15000000000" "end" >"$scratch/profiled.hist"
tune --calibration "$scratch/mixed-rounds" "$scratch/profiled.hist"
expect_match "profiled far above the model: no best setting" "$(cat "$scratch/out")" \
	'^No best setting: .*\(memcpy: the profile measured [0-9]+x the model.s time inside it\)\.$'
sed -e 's/^100 1 9 9$/100 5 5 15/' -e 's/^200 9 1 9$/200 5 5 15/' "$scratch/mixed-rounds" >"$scratch/across-zero"
tune --calibration "$scratch/across-zero" "$scratch/agree.hist"
expect_match "a saving whose p10..p90 spans zero: no best setting" "$(cat "$scratch/out")" \
	'^No best setting: the model.s saving against the default spans zero over the 3 calibration rounds \(p10\.\.p90 -30\.0% \.\. 50\.0%\)\.$'
expect_eq "a saving whose p10..p90 spans zero: no environment line of its own" "$(grep -c '^MEMSHIM_' "$scratch/out")" 0
# A saving too small for memshim ab: both A/Bs call a difference under 1%
# of what they time none (of the program's time; of these functions' time
# in-process), so tune says so under the share.  By hand: scalar at 5 ns
# (or 9.95) where glibc takes 10, in every round, in a program of 20 s of
# CPU time: CALLS calls of 100 B save CALLS x 5 ns.
sed -e 's/^100 1 9 9$/100 5 5 5/' -e 's/^200 9 1 9$/200 5 5 5/' "$scratch/mixed-rounds" >"$scratch/half"
sed -e 's/^100 5 5 5$/100 9.95 9.95 9.95/' -e 's/^200 5 5 5$/200 9.95 9.95 9.95/' "$scratch/half" >"$scratch/near"
small_saving() { # NAME CALLS CALIBRATION: tune's lines from "against glibc" on, in $out
	printf '%s\n' "memshim-histogram 2" "pid 1" "program fake" "reason exit" "variant memcpy glibc" "function memcpy" \
		"bucket 96 104 $2 $(($2 * 100))" "profile 1000 20000 20000000000 20000000000 20000000000 0" "end" >"$scratch/$1.hist"
	tune --calibration "$scratch/$3" "$scratch/$1.hist"
	expect_eq "$1: tune runs" "$rc:$(cat "$scratch/err")" "0:"
	out=$(sed -n '/^  against glibc: /,$p' "$scratch/out" | tr '\n' ' ' | tr -s ' ')
}
small_saving large 100000000 half
expect_match "2.5% of the program's time: its share" "$out" 'saves about 500 ms of 20 s of CPU time \(2\.5%\)'
expect_eq "2.5% of the program's time: nothing said about ab" "$(printf '%s\n' "$out" | grep -c 'below what memshim ab resolves')" 0
small_saving small 1000 half
expect_match "0.000025% of the program's time, 50% of the functions': whole-program ab cannot resolve it" "$out" \
	"saves about 5(\\.0)? us of 20 s of CPU time \\([0-9.e-]+%\\) below what memshim ab resolves: it calls a difference under 1% of the program's time none, however many runs; "
expect_match "50% of the functions' time: the in-process A/B can" "$out" \
	"ab --in-process, which times the calls themselves, resolves 1% of these functions' time, and this is 50% of it"
small_saving tiny 1000 near
expect_match "0.5% of the functions' time: the in-process A/B cannot either" "$out" \
	"below what memshim ab resolves: .* nor can ab --in-process: this is 0\\.5% of these functions' time, under the 1% it resolves"
tune() { "$tool" tune "$@" >"$scratch/out" 2>"$scratch/err"; rc=$?; }

# "Against the default" names the default's variants and where its
# thresholds come from, as memshim info does.  The rep ranges' thresholds
# are read by the *_erms variants, which need ERMS.
if usable_here sse2_erms; then
	by_hand=sse2_erms rep='movsb 4 KiB \[calibration file\], stosb 4 KiB \[calibration file\], '
else
	by_hand=sse2 rep=''
	skip "the default's movsb and stosb from the calibration file: this CPU lacks ERMS, which the variants that read them need"
fi
sed -e 's/^memshim-calibration 1$/memshim-calibration 2/' \
	-e "/^nt /a choice memcpy $by_hand by hand\\nchoice memmove $by_hand by hand\\nchoice memset $by_hand by hand" \
	"$scratch/mixed-rounds" >"$scratch/default-file"
env MEMSHIM_CALIBRATION="$scratch/default-file" "$tool" tune --calibration "$scratch/mixed-rounds" "$scratch/two.hist" >"$scratch/out" 2>&1
expect_match "the default's thresholds: from the calibration file" "$(cat "$scratch/out")" \
	"^  against the default \\(memcpy $by_hand, memmove $by_hand, memset $by_hand; thresholds: ${rep}nt 32 MiB \\[calibration file\\]\\): "
env MEMSHIM_CALIBRATION="$scratch/default-file" MEMSHIM_NT_THRESHOLD=1M "$tool" tune --calibration "$scratch/mixed-rounds" \
	"$scratch/two.hist" >"$scratch/out" 2>&1
expect_match "the default's thresholds: one from the environment" "$(cat "$scratch/out")" \
	"; thresholds: ${rep}nt 1 MiB \\[environment\\]\\): "
# The library reads the calibration file's thresholds; the environment wins.
movsb=$(awk '$1 == "movsb" { print $2 }' "$cal")
preloaded env MEMSHIM_CALIBRATION="$cal" MEMSHIM_VERBOSE=1 true
expect_match "MEMSHIM_CALIBRATION: the thresholds come from the file" "$err" \
	"movsb $movsb B \\[calibration file\\].*nt [0-9]+ B \\[calibration file\\](, movsb_stop [0-9]+ B \\[CPU row\\])?; calibration file $cal"
preloaded env MEMSHIM_CALIBRATION="$cal" MEMSHIM_NT_THRESHOLD=12345 MEMSHIM_VERBOSE=1 true
expect_match "the environment overrides the file" "$err" 'nt 12345 B \[environment\]'
preloaded env MEMSHIM_VERBOSE=1 true
expect_match "no file: the built-in thresholds (or the CPU row's)" "$err" 'movsb [0-9]+ B \[(built-in|CPU row)\]'
mkdir -p "$scratch/xdg/memshim" && cp "$cal" "$scratch/xdg/memshim/calibration"
preloaded env XDG_CACHE_HOME="$scratch/xdg" MEMSHIM_VERBOSE=1 true
expect_match "the default path under XDG_CACHE_HOME is read" "$err" 'movsb [0-9]+ B \[calibration file\]'
"$tool" tune --calibration "$cal" "$scratch"/h.* >/dev/null 2>&1 && env MEMSHIM_CALIBRATION="$cal" "$tool" info >"$scratch/out"
expect_match "memshim info says where thresholds came from" "$(cat "$scratch/out")" 'thresholds: .*\[calibration file\]'

for case in "garbage:hello" "version:memshim-calibration 9" "cpu:memshim-calibration 1\ncpu NoSuchVendor 1 1\nauto_movsb 1\nauto_stosb 1\nnt 33554432" \
	"number:memshim-calibration 1\ncpu $(awk '$1 == "cpu" { print $2, $3, $4 }' "$cal")\nauto_movsb lots\nauto_stosb 1\nnt 1" \
	"low nt:memshim-calibration 1\ncpu $(awk '$1 == "cpu" { print $2, $3, $4 }' "$cal")\nauto_movsb 1\nauto_stosb 1\nnt 16447"; do
	printf "${case#*:}\n" >"$scratch/bad"
	preloaded env MEMSHIM_CALIBRATION="$scratch/bad" MEMSHIM_VERBOSE=1 true
	expect_eq "malformed file (${case%%:*}): one warning" "$(printf '%s\n' "$err" | grep -c '^memshim: calibration file')" 1
	expect_match "malformed file (${case%%:*}): defaults" "$err" 'movsb [0-9]+ B \[(built-in|CPU row)\]'
	expect_eq "malformed file (${case%%:*}): the program still runs" "$rc" 0
done
preloaded env MEMSHIM_CALIBRATION="$scratch/missing" true
expect_match "a missing MEMSHIM_CALIBRATION file: one warning" "$err" '^memshim: calibration file .*missing.* cannot be opened; using the built-in thresholds$'

# memshim bench takes a dump as a distribution: one per function.
"$tool" bench --rounds 3 --cases dist --variants scalar --distribution "$(ls "$scratch"/h.* | head -n 1)" \
	--csv "$scratch/b.csv" >/dev/null 2>"$scratch/err"
expect_eq "bench --distribution DUMP: a line per function, variant and placement" \
	"$(awk -F, '$3 == "dist" && $6 == "L1"' "$scratch/b.csv" | cut -d, -f1,2 | sort | tr '\n' ' ')" \
	"memcpy,glibc memcpy,scalar memmove,glibc memmove,scalar memset,glibc memset,scalar "
expect_eq "bench --distribution DUMP: each in four placements" \
	"$(awk -F, '$3 == "dist" { print $6 }' "$scratch/b.csv" | LC_ALL=C sort | uniq -c | awk '{ printf "%s=%s ", $2, $1 }')" \
	"L1=6 L2=6 L3=6 cold=6 "

# Bad arguments: one line, status 2.
for args in "" "--frobnicate" "--calibration"; do
	# shellcheck disable=SC2086
	tune $args
	expect_eq "tune $args: exit status" "$rc" 2
	expect_eq "tune $args: one line on stderr" "$(wc -l <"$scratch/err")" 1
done
# A dump that cannot be read (missing; a calibration file): one line, status 1, as in report and merge.
cp "$cal" "$scratch/calibration-copy"
for args in "$scratch/nonexistent.hist" "--calibration $cal $scratch/calibration-copy"; do
	# shellcheck disable=SC2086
	tune $args
	expect_eq "tune $args: exit status" "$rc" 1
	expect_eq "tune $args: one line on stderr" "$(wc -l <"$scratch/err")" 1
done
# The calibration file is tune's output whenever it calibrates: never one of its inputs.
tune --calibration "$cal" "$cal"
expect_eq "tune --calibration naming one of its dumps: status 2" "$rc" 2
expect_match "and why" "$(cat "$scratch/err")" 'is an input of this command'
tune --calibration "$scratch/none" "$scratch"/h.*
expect_eq "tune without a calibration: status 1" "$rc" 1
expect_match "tune without a calibration says what to do" "$(cat "$scratch/err")" 'run memshim tune --calibrate first'

# The 4 KiB-aliasing hazard of rep movsb (issue 61), in report and tune:
# made-up dumps of 1000 memcpy calls of 100 B and 10000 of 4 KiB, N of the
# latter with (dst - src) mod 4096 in 1..63, and made-up CPU rows
# (MEMSHIM_CPU_ROW): one where those cost glibc 0.3 ns a byte more and sse2
# nothing, one that has not measured them.
hazard_dump() { # NAME N [RECORDS...]: the dump, with more records after the histogram
	name=$1 near=$2
	shift 2
	printf '%s\n' "memshim-histogram 7" "pid 1" "program fake" "reason exit" "variant memcpy glibc" \
		"function memcpy" "bucket 96 104 1000 100000" "bucket 4096 4608 10000 40960000" \
		"alias4k_near $near $((near * 4096)) $near $((near * 4096))" "$@" "end" >"$scratch/$name.hist"
}
hazard_dump near 9000
hazard_dump few 10
hazard_dump timed 9000 "timing 64 2600000000 15000 monotonic" "function memcpy" \
	"timed 96 104 100 1000 10000 0" "timed 4096 4608 100 200000 400000000 0"
hazard_dump profiled 9000 "profile 1000 20000 20000000000 20000000000 20000000000 0" "function memcpy" \
	"cpu 4096 4608 15000 15000000000"
printf 'alias4k memcpy glibc:0.300,erms:0.300,sse2:0.000\n' >"$scratch/slow.row"
printf '# no alias4k lines\n' >"$scratch/unmeasured.row"
{
	printf 'memshim-calibration 2\n%s\nauto_movsb 4096\nauto_stosb 4096\nnt 33554432\n' "$(grep '^cpu ' "$cal")"
	printf 'choice memcpy glibc by hand\nchoice memmove glibc by hand\nchoice memset glibc by hand\n'
	printf 'unit ns\nclock by hand\nrounds 3\n'
	# away from the hazard sse2 takes 1.1x glibc's time at every size
	printf 'curve memcpy glibc 2\n100 10 10 10\n4096 400 400 400\n'
	for curve in sse2 sse2:nt; do printf 'curve memcpy %s 2\n100 11 11 11\n4096 440 440 440\n' "$curve"; done
	echo end
} >"$scratch/hazard-glibc"
sed 's/^choice memcpy glibc/choice memcpy sse2/' "$scratch/hazard-glibc" >"$scratch/hazard-sse2"
report() { # ROW CALIBRATION DUMP
	MEMSHIM_CPU_ROW="$scratch/$1.row" MEMSHIM_CALIBRATION="$scratch/$2" "$tool" report "$scratch/$3.hist" \
		>"$scratch/out" 2>"$scratch/err"
	rc=$?
}
# Lines $1 (sed's) of the hazard block, which follows the bottom line.
hazard_block() { sed -n '/^4 KiB-aliasing hazard:/,$p' "$scratch/out" | sed -n "$1"; }
report unmeasured hazard-glibc near
expect_eq "report on hazard copies: runs" "$rc:$(cat "$scratch/err")" "0:"
expect_eq "the bottom line names it, its cost not measured" "$(sed -n 4p "$scratch/out")" \
	"  hazard: memcpy's 4 KiB aliasing, its cost not measured on this CPU (below)"
expect_eq "they come first, after the bottom line, with their share of the bytes" "$(hazard_block '1p;3p')" \
	"4 KiB-aliasing hazard: copies from 2 KiB with (dst - src) mod 4096 in 1..63, where rep movsb
  memcpy: 9000 calls, 35 MiB (90% of its bytes)"
expect_eq "not measured on this CPU: how to measure it" "$(hazard_block 4p)" \
	"    not measured on this CPU (its row has no alias4k line): memshim bench --cases hazard measures it"
report slow hazard-glibc timed
expect_eq "the bottom line: its cost under glibc" "$(sed -n 4p "$scratch/out")" \
	"  hazard: memcpy's 4 KiB aliasing, 11.1 ms more under glibc on this CPU (below)"
expect_eq "measured: the cost under glibc, its share of the timed time, and the setting that avoids it" \
	"$(hazard_block 3,5p)" "  memcpy: 9000 calls, 35 MiB (90% of its bytes)
    under glibc on this CPU about 11 ms more (0.300 ns a byte, row $scratch/slow.row), 55% of memcpy's timed time;
    MEMSHIM_MEMCPY=sse2 avoids it"
report slow hazard-sse2 near
expect_eq "a default that avoids it says so" "$(hazard_block 5p)" "    the default avoids it here (sse2 from 2 KiB)"
expect_eq "said once: the aliasing table keeps only the counts" "$(grep -c 'rep movsb is slow\|avoids it' "$scratch/out")" 1
report slow hazard-glibc few
expect_eq "under 1% of the bytes: no hazard line, the bottom line's none" \
	"$(grep -ci hazard "$scratch/out"):$(sed -n 4p "$scratch/out")" "1:  hazard: none that takes 1% of a function's time"
"$tool" report "$scratch/two.hist" >"$scratch/out" 2>&1
expect_eq "no copies at a near distance: no hazard line" "$(grep -v '^  hazard: none' "$scratch/out" | grep -ci hazard)" 0
tune() { env MEMSHIM_CALIBRATION="$scratch/hazard-glibc" "$tool" tune "$@" >"$scratch/out" 2>"$scratch/err"; rc=$?; }
MEMSHIM_CPU_ROW=$scratch/unmeasured.row tune --calibration "$scratch/hazard-glibc" "$scratch/near.hist"
expect_eq "tune, the hazard not measured: glibc, the faster away from it" "$rc:$(sed -n '/^Best setting:$/{n;p}' "$scratch/out")" \
	"0:MEMSHIM_MEMCPY=glibc"
MEMSHIM_CPU_ROW=$scratch/slow.row tune --calibration "$scratch/hazard-glibc" "$scratch/near.hist"
expect_eq "tune, the hazard measured: a setting that avoids it" \
	"$rc:$(sed -n '/^Best setting:$/{n;p}' "$scratch/out" | cut -d' ' -f1)" "0:MEMSHIM_MEMCPY=sse2"
expect_match "the ranking counts it: sse2 ahead of glibc" "$(grep -A1 '^  variant ' "$scratch/out" | tail -n 1)" '^  sse2 +-'
expect_eq "nothing left out of the prediction" "$(grep -c 'leave it out' "$scratch/out")" 0
MEMSHIM_CPU_ROW=$scratch/slow.row tune --calibration "$scratch/hazard-glibc" "$scratch/profiled.hist"
expect_match "the check names the hazard before cold data" "$(sed -n '/they disagree/,/^$/p' "$scratch/out" | tr '\n' ' ')" \
	'they disagree: .* 4 KiB aliasing: 90% of its bytes are copies from 2 KiB .* or +the data was probably cold'

# The calibration a recording ran under, kept beside it as the quickstart
# keeps it (DIR.calibration beside DIR): tune reads it where this machine
# has none of its own, and says which file it reads and what kind.
mkdir "$scratch/rec" && cp "$scratch/near.hist" "$scratch/rec/merged" && cp "$scratch/hazard-glibc" "$scratch/rec.calibration"
env -u MEMSHIM_CALIBRATION "$tool" tune "$scratch/rec/merged" >"$scratch/out" 2>"$scratch/err"
expect_eq "tune finds the recording's calibration beside it" "$?:$(cat "$scratch/err")" "0:"
expect_eq "... and says so first" "$(sed -n 1p "$scratch/out")" \
	"memshim tune: the calibration in $scratch/rec.calibration (the one the recording ran under, beside it; a tiny one, 3 rounds a size)"
expect_match "... and what a calibration short of a full one means for its choices" "$(sed -n 2,4p "$scratch/out" | tr '\n' ' ')" \
	'its variant choices come from the same class +cases, so a full one chooses otherwise only where a class lay near the choice rule.s edge'
cp "$scratch/hazard-glibc" "$scratch/mine"
"$tool" tune --calibration "$scratch/mine" "$scratch/rec" >"$scratch/out" 2>&1
expect_eq "--calibration FILE wins, and is named" "$(sed -n 1p "$scratch/out")" \
	"memshim tune: the calibration in $scratch/mine (--calibration; a tiny one, 3 rounds a size)"

# How to prove a pick: in one run, with the model's B/A beside it; over
# whole runs too only where the saving is 1% or more of the program's time.
# A made-up calibration where sse2 takes 0.8x glibc's time, and a program
# whose copies take 32 ms of 20 s of CPU, then of 0.5 s.
{
	printf 'memshim-calibration 2\n%s\nauto_movsb 4096\nauto_stosb 4096\nnt 33554432\n' "$(grep '^cpu ' "$cal")"
	printf 'choice memcpy glibc by hand\nchoice memmove glibc by hand\nchoice memset glibc by hand\n'
	printf 'unit ns\nclock by hand\nrounds 3\n'
	printf 'curve memcpy glibc 2\n100 10 10 10\n4096 400 400 400\n'
	for curve in sse2 sse2:nt; do printf 'curve memcpy %s 2\n100 8 8.5 9\n4096 300 310 320\n' "$curve"; done
	echo end
} >"$scratch/sse2-faster"
proof_dump() { # NAME PROCESS_CPU_NS SAMPLES
	printf '%s\n' "memshim-histogram 7" "pid 1" "program fake" "reason exit" "variant memcpy glibc" "function memcpy" \
		"bucket 96 104 100000 10000000" "bucket 4096 4608 100000 409600000" \
		"profile 1000 $3 $2 $2 $2 0" "recording_apart 1" "function memcpy" "cpu 4096 4608 8 32000000" "end" \
		>"$scratch/$1.hist"
}
proof_dump long 20000000000 20000
tune --calibration "$scratch/sse2-faster" "$scratch/long.hist"
expect_eq "a pick saving well under 1% of the program's time: measured in one run, the model's B/A beside it" \
	"$(sed -n '/^  measure it in one run:/,/^Predicted/p' "$scratch/out" | sed -e '$d' -e 's/THRESHOLD=[0-9]*/THRESHOLD=N/')" \
	"  measure it in one run: memshim ab --in-process --impl glibc --env 'MEMSHIM_MEMCPY=sse2 MEMSHIM_NT_THRESHOLD=N' -- fake [its arguments]
  its B/A predicted in these functions (p10..p90 over the calibration's rounds), for that run's
  \"all\" lines: all 0.777 (0.756..0.797), memcpy 0.777 (0.756..0.797)"
proof_dump short 500000000 125
tune --calibration "$scratch/sse2-faster" "$scratch/short.hist"
expect_match "one saving 1% or more of it: over whole runs too" "$(tr '\n' ' ' <"$scratch/out")" \
	"or over whole runs \(it saves [0-9.]+% of the program's CPU time, which they resolve\): +memshim ab --runs auto --impl glibc --env 'MEMSHIM_MEMCPY=sse2 MEMSHIM_NT_THRESHOLD=[0-9]+' -- fake "
finish
