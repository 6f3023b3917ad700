#!/bin/sh
# Dumps are untrusted input (issue 51): the findings of a fuzzing and an
# attacker's try, each kept as an input in tests/fuzz/report_corpus
# (regress-*), and what every reader must do with it: refuse it with a
# reason, or read it right, never crash, hang, run script in an SVG,
# write a JSON document a parser refuses, or empty a file.  Also: a file
# that is not a dump at all is named for what it looks like (issue 49).
# The inputs are of version 7 where they need nothing later, so that the
# readers before the fixes (bbd2ab8, which read versions 1 to 7) take
# them and fail these checks on the finding itself, not on the version.
. "${top_srcdir:-.}/tests/lib.sh"
LC_ALL=C
export LC_ALL
corpus=${top_srcdir:-.}/tests/fuzz/report_corpus
tool=$T_MEMSHIM_TOOL

# status CMD...: runs the tool with a time limit; stdout in $scratch/out,
# stderr in $err, status in $rc (124: it hung; above 128: a signal).
status() {
	timeout -k 5 60 "$tool" "$@" >"$scratch/out" 2>"$scratch/err"
	rc=$?
	err=$(cat "$scratch/err")
}

# refused WHAT REGEX CMD...: status 1 and a reason on stderr.
refused() {
	what=$1 regex=$2
	shift 2
	status "$@"
	if [ "$rc" != 1 ]; then
		fail "$what: status $rc, expected 1 [$(printf '%s' "$err" | head -c 300)]"
	else
		expect_match "$what" "$err" "$regex"
	fi
}

# 1. Window weights of 2^63: 4096 windows of one dump are read; two such
# dumps would double the weight to 0, and the next dump or section with
# windows divided by it (SIGFPE in every reader before).
big=$corpus/regress-window-weight-4096
refused "a window weight that would double past 2^64 (report)" 'overflow' report "$big" "$big"
refused "a window weight that would double past 2^64 (merge)" 'overflow' merge -o "$scratch/m" "$big" "$big"
refused "a window weight that would double past 2^64 (tune)" 'overflow' tune "$big" "$big"
refused "three dumps whose window weight would double past 2^64 (report)" 'overflow' report "$big" "$big" "$big"
# One file: sections of 4096, 1 and 1 windows of weight 2^63 (the
# second doubled it to 0 before, the third divided by it).
for command in report "merge -o $scratch/m-sections" tune "bench --replay"; do
	# shellcheck disable=SC2086
	refused "sections whose window weight would double past 2^64 ($command)" 'overflow' \
		$command "$corpus/regress-window-weight-sections"
done
refused "more windows than a section holds (bench --replay)" 'more windows than a section holds' \
	bench --replay "$corpus/regress-window-weight-4097"
# Before, one such dump merged alone into "sequences 1 0", which report refused.
refused "more windows than a section holds (merge)" 'more windows than a section holds' \
	merge -o "$scratch/m4097" "$corpus/regress-window-weight-4097"
expect_eq "and no merge is written" "$(ls "$scratch/m4097" 2>/dev/null)" ""
status merge -o "$scratch/one" "$big"
expect_eq "one dump of 4096 windows of weight 2^63 merges" "$rc" 0
expect_match "its merge keeps the weight" "$(grep '^sequences' "$scratch/one")" '^sequences 1 9223372036854775808$'
status report "$scratch/one"
expect_eq "and reads back" "$rc" 0

# 2. A frame naming a FIFO or a device: the symbolizer opens regular files only, never blocking.
if have_config HAVE_LIBDW; then
	mkfifo "$scratch/fifo"
	sed "s|/dev/zero|$scratch/fifo|" "$corpus/regress-device-frame" >"$scratch/fifo-frame"
	for mode in "" --json --folded; do
		# shellcheck disable=SC2086
		status report $mode "$scratch/fifo-frame"
		expect_eq "a frame naming a FIFO (report ${mode:-text})" "$rc" 0
		# shellcheck disable=SC2086
		status report $mode "$corpus/regress-device-frame"
		expect_eq "a frame naming a device (report ${mode:-text})" "$rc" 0
	done
else
	skip "frames naming a FIFO: built without libdw, no symbolizer"
fi

# 3. and 7. Every string from a dump escaped for its format, in valid UTF-8
# (the text report's too: regress-terminal-escape).
if command -v python3 >/dev/null; then
	status report --svg "$scratch/script.svg" "$corpus/regress-svg-script"
	expect_eq "report --svg of a program named <script>" "$rc" 0
	python3 -c 'import sys, xml.etree.ElementTree as t; t.parse(sys.argv[1])' "$scratch/script.svg" 2>"$scratch/xml"
	expect_eq "its SVG is well-formed XML" "$?:$(head -c 200 "$scratch/xml")" "0:"
	expect_eq "with no script element" "$(grep -c '<script' "$scratch/script.svg")" 0
	status report --svg "$scratch/utf8.svg" --json "$corpus/regress-invalid-utf8"
	python3 -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$scratch/out" 2>"$scratch/json"
	expect_eq "report --json of invalid UTF-8 is valid JSON in UTF-8" "$rc:$?:$(head -c 200 "$scratch/json")" "0:0:"
	python3 -c 'import sys, xml.etree.ElementTree as t; t.parse(sys.argv[1])' "$scratch/utf8.svg" 2>"$scratch/xml"
	expect_eq "and its SVG is well-formed XML" "$?:$(head -c 200 "$scratch/xml")" "0:"
	status report --folded "$corpus/regress-invalid-utf8"
	python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$scratch/out" 2>"$scratch/folded"
	expect_eq "report --folded of invalid UTF-8 is UTF-8" "$rc:$?:$(head -c 200 "$scratch/folded")" "0:0:"
	expect_match "a ';' in a frame does not split it" "$(cat "$scratch/out")" '_g;memcpy 200$'
	# On a terminal a control character from a dump could rewrite the screen.
	for mode in "" --by-program; do
		# shellcheck disable=SC2086
		status report $mode "$corpus/regress-terminal-escape" "$corpus/regress-invalid-utf8"
		python3 -c 'import sys; t = open(sys.argv[1], "rb").read().decode("utf-8")
bad = [c for c in t if c != "\n" and (ord(c) < 32 or 127 <= ord(c) <= 159)]
sys.exit("control characters: %r" % bad if bad else 0)' "$scratch/out" 2>"$scratch/text"
		expect_eq "report ${mode:-text} of control characters and invalid UTF-8 writes UTF-8 without them" \
			"$rc:$?:$(head -c 200 "$scratch/text")" "0:0:"
	done
else
	skip "SVG, JSON and folded output checked by their parsers: no python3"
fi

# 5. Counts: sums checked, signs refused, processes that wrap refused.
status report --json "$corpus/regress-callsite-sum"
expect_match "equal call sites summing past 2^64-1 are held there" "$(cat "$scratch/out")" \
	'"function": "memcpy", "calls": 18446744073709551615, "bytes": 200,'
expect_match "and it is said" "$err" 'passed 2\^64-1'
refused "a call site's count of -1" 'callsite needs calls' report "$corpus/regress-callsite-negative"
refused "processes that wrap past 2^32-1" 'overflow' report "$corpus/regress-processes-max" "$corpus/regress-processes-max"
expect_eq "and no (null) in the message" "$(printf '%s' "$err" | grep -c null)" 0
# 2^32-1 + 1 wrapped to 0 processes, and report named "program (null)".
refused "processes that wrap to 0" 'overflow' report "$corpus/regress-processes-max" "$corpus/real-calls"
expect_eq "and no (null) in that message" "$(printf '%s' "$err" | grep -c null)" 0
refused "a bucket with bytes but no calls" 'bytes but no calls' report "$corpus/regress-bytes-no-calls"

# 6. Messages.
refused "a later version is named with the versions read" 'versions 1 to 9' report "$corpus/regress-version-10"
refused "two dumps joined into one file" 'more sections than its first says' report "$corpus/regress-concatenated"

# 7. A memcpy recorded on overlapping ranges (distance -1) is replayed on
# separate ones: before, bench --replay ran memcpy on them, which the
# sanitizer pass (this file with the tool under ASan) reports as
# memcpy-param-overlap.  Three pairs of one variant: the replay is what is
# checked, not its figures.
status bench --replay "$corpus/regress-overlapping-memcpy" --quick --variants sse2 --rounds 3
expect_eq "bench --replay of a memcpy recorded on overlapping ranges [$(printf '%s' "$err" | head -c 300)]" "$rc" 0
# (qsort on an empty array, (NULL, 0), was UBSan's report on every dump
# without call sites, regress-svg-script's above among them: the sanitizer
# pass fails on it.)

# Issue 49: files that are no dump.
head -c 4096 "$tool" >"$scratch/elf"
gzip -c "$corpus/real-calls" >"$scratch/gzip"
printf '\000\001\002\377binary\n' >"$scratch/binary"
for command in report "merge -o $scratch/never" tune; do
	# shellcheck disable=SC2086
	refused "an ELF file ($command)" 'not a memshim dump: it looks like an ELF file' $command "$scratch/elf"
	# shellcheck disable=SC2086
	refused "a gzip file ($command)" 'not a memshim dump: it looks like a gzip file' $command "$scratch/gzip"
	# shellcheck disable=SC2086
	refused "random bytes ($command)" 'not a memshim dump: it looks like binary data' $command "$scratch/binary"
done

# 4. Outputs: never emptied by a failed run, never an input, never two of one name.
printf 'keep\n' >"$scratch/keep.csv"
status bench --replay "$corpus/regress-bytes-no-calls" --csv "$scratch/keep.csv"
expect_eq "a failed bench --replay leaves its --csv file as it was" "$rc:$(cat "$scratch/keep.csv")" "1:keep"
cp "$corpus/real-calls" "$scratch/d"
status bench --replay "$scratch/d" --csv "$scratch/d"
expect_eq "bench --csv naming its --replay dump is refused" "$rc:$(cmp -s "$scratch/d" "$corpus/real-calls"; echo $?)" "2:0"
status report --svg "$scratch/p" --pprof "$scratch/p" "$scratch/d"
expect_eq "report --svg and --pprof naming one file are refused" "$rc:$(ls "$scratch/p" 2>/dev/null)" "2:"
status report --force --svg "$scratch/d" "$scratch/d"
expect_eq "report --svg naming its input is refused, even with --force" \
	"$rc:$(cmp -s "$scratch/d" "$corpus/real-calls"; echo $?)" "2:0"
# An output that is a directory is refused before anything is written, and
# one that names an input through a link as well (tune's calibration is
# its output whenever it calibrates).
mkdir "$scratch/dir"
ln -s d "$scratch/link"
ln "$scratch/d" "$scratch/hard"
for command in "report --force --svg" "report --force --pprof" "tune --calibration"; do
	# shellcheck disable=SC2086
	status $command "$scratch/dir" "$scratch/d"
	expect_eq "$command naming a directory is a usage error, said" "$rc:$(printf '%s' "$err" | grep -c 'is a directory')" "2:1"
done
status bench --replay "$corpus/real-zstd-every-section" --quick --csv "$scratch/dir"
expect_eq "bench --csv naming a directory is a usage error, before any measuring" "$rc:$(wc -c <"$scratch/out")" "2:0"
for name in link hard; do
	status tune --calibration "$scratch/$name" "$scratch/d"
	expect_eq "tune --calibration naming its input through a $name is refused" \
		"$rc:$(printf '%s' "$err" | grep -c 'is an input')" "2:1"
done
expect_eq "and the input is as it was" "$(cmp -s "$scratch/d" "$corpus/real-calls"; echo $?)" 0
status report --svg "$scratch/new.svg" "$scratch/d"
expect_eq "report --svg writes its file" "$rc:$(ls "$scratch" | grep -c 'new.svg')" "0:1"

finish
