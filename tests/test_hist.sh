#!/bin/sh
# Recording: exact counts for a known sequence of calls in one thread, 16
# threads, under a stream of signals whose handler copies, in a forked
# child; dumps at exit, on an interval, on a signal and before exec; %p and
# %e; an unwritable path; a planted symlink; merging; the SVG.
. "${top_srcdir:-.}/tests/lib.sh"
. "${top_srcdir:-.}/tests/hist_lib.sh"

pid_of() { awk '$1 == "pid" { print $2 }' "$scratch/out"; }

for variant in glibc scalar fsrm; do
	rm -f "$dir"/*
	preloaded env MEMSHIM_IMPL=$variant MEMSHIM_DUMP="$dir/h.%e.%p" "$program" calls 1000
	expect_eq "$variant: program exits 0" "$rc" 0
	pid=$(pid_of)
	expect_eq "$variant: %e and %p expand" "$(ls "$dir")" "h.hist_program.$pid"
	expect_counts "$variant: one thread, exact counts" 1000 0 "$dir/h.hist_program.$pid"
	expect_match "$variant: the dump names the variant" "$(cat "$dir"/h.*)" "^variant memcpy $variant\$"
done

rm -f "$dir"/*
preloaded env MEMSHIM_DUMP="$dir/h.%p" "$program" threads 20000
expect_counts "16 threads (ended before the dump), exact counts" 320000 0 "$dir"/h.*

rm -f "$dir"/*
preloaded env MEMSHIM_DUMP="$dir/h.%p" "$program" signals 300000
handled=$(awk '$1 == "handled" { print $2 }' "$scratch/out")
expect_match "the signal handler ran" "$handled" '^[1-9][0-9]*$'
expect_counts "copies in a signal handler, exact counts ($handled signals)" 300000 "$handled" "$dir"/h.*

rm -f "$dir"/*
preloaded env MEMSHIM_DUMP="$dir/h.%p" "$program" fork 500
parent=$(pid_of)
child=$(awk '$1 == "child" { print $2 }' "$scratch/out")
expect_counts "fork: the parent's file has the parent's calls only" 500 0 "$dir/h.$parent"
expect_counts "fork: the child's file has the child's calls only" 1000 0 "$dir/h.$child"

rm -f "$dir"/*
preloaded env MEMSHIM_DUMP="$dir/h.%p" "$program" exec 300
pid=$(pid_of | head -n 1) # the exec'd program prints the same pid again
expect_counts "dump before exec" 300 0 "$dir/h.$pid"
expect_match "the exec dump says so" "$(cat "$dir/h.$pid")" '^reason exec$'
expect_counts "the exec'd program wrote its own file beside it" 600 0 "$dir/h.$pid.1"
expect_eq "and no other" "$(ls "$dir" | sort | tr '\n' ' ')" "h.$pid h.$pid.1 "

rm -f "$dir"/*
preloaded env MEMSHIM_DUMP="$dir/h.%p" "$program" calls 0
expect_eq "a process that made no call writes no dump" "$rc:$(ls "$dir")" "0:"
preloaded env MEMSHIM_DUMP="$dir/h.%p" sh -c 'exec "$0" calls 0' "$program"
expect_eq "nor does one that execs another that makes none" "$rc:$(ls "$dir" | grep -cv "^h\.[0-9]*$")" "0:0"

rm -f "$dir"/*
preloaded env MEMSHIM_DUMP="$dir/h" MEMSHIM_DUMP_INTERVAL=1 "$program" interval 400
expect_counts "interval dump of a program that never exits normally" 400 0 "$dir/h"
expect_match "the interval dump says so" "$(cat "$dir/h")" '^reason interval$'

rm -f "$dir"/*
preloaded env MEMSHIM_DUMP="$dir/h" MEMSHIM_DUMP_SIGNAL=USR1 "$program" sigdump 250
expect_counts "dump on MEMSHIM_DUMP_SIGNAL" 250 0 "$dir/h"
expect_match "the signal dump says so" "$(cat "$dir/h")" '^reason signal$'

# A relative path is taken from where the process started, even after it
# changes directory; memshim run makes it absolute for the whole command.
rm -f "$dir"/*
(cd "$dir" && LD_PRELOAD="$MEMSHIM_LIBRARY" MEMSHIM_DUMP=rel.%p "$program" calls 5 >/dev/null)
expect_eq "relative MEMSHIM_DUMP: the dump is in the start directory" "$(ls "$dir" | grep -c '^rel\.')" 1
rm -f "$dir"/*
(cd "$dir" && MEMSHIM_DUMP=run.%p "$T_MEMSHIM_TOOL" run -- sh -c 'cd / && exec "$0" calls 5' "$program" >/dev/null)
expect_eq "memshim run: a relative path survives cd in the command" "$(ls "$dir" | grep -c '^run\.')" 2

# A path that cannot be written: one warning, the program runs on.
preloaded env MEMSHIM_DUMP=/nonexistent/dir/h "$program" calls 10
expect_eq "unwritable path: exit status" "$rc" 0
expect_eq "unwritable path: one line on stderr" "$(printf '%s\n' "$err" | wc -l)" 1
expect_eq "unwritable path: the line says what, in words" "$err" \
	'memshim: MEMSHIM_DUMP="/nonexistent/dir/h": cannot write dumps there: no such directory'

# A planted symlink: its target is never written; the dump goes beside it.
rm -f "$dir"/*
echo "precious" >"$scratch/target"
ln -s "$scratch/target" "$dir/h"
preloaded env MEMSHIM_DUMP="$dir/h" "$program" calls 10
expect_eq "planted symlink: target unchanged" "$(cat "$scratch/target")" "precious"
expect_counts "planted symlink: the dump went to h.1" 10 0 "$dir/h.1"

# Call sites: one call in 7 sampled, attributed to the program's own code.
rm -f "$dir"/*
preloaded env MEMSHIM_DUMP="$dir/h" MEMSHIM_CALLSITES=7 "$program" calls 1000
if grep -q '^#define HAVE_LIBUNWIND 1' "$top_builddir/config.h"; then
	sampled=$(awk '$1 == "callsite" { n += $3 } END { print n + 0 }' "$dir/h")
	expect_match "call sites: about 10000/7 calls sampled ($sampled)" "$sampled" '^14(2[6-9]|30)$'
	expect_eq "call sites: every sampled caller is in the program" \
		"$(awk '$1 == "callsite" && $5 !~ /\/hist_program\+0x/' "$dir/h")" ""
	"$T_MEMSHIM_TOOL" report "$dir/h" >"$scratch/text"
	expect_match "the report lists the top call sites" "$(cat "$scratch/text")" '^top call sites by bytes'
else
	expect_match "without libunwind, MEMSHIM_CALLSITES says so" "$err" 'built without libunwind'
fi

# Merging several files; the SVG and fleetbench outputs.
rm -f "$dir"/*
for i in 1 2 3; do preloaded env MEMSHIM_DUMP="$dir/h.%p" "$program" calls 100; done
expect_counts "report merges three files" 300 0 "$dir"/h.*
"$T_MEMSHIM_TOOL" report --svg "$scratch/plot.svg" --fleetbench-csv "$scratch/fb_" "$dir"/h.* >"$scratch/text"
expect_eq "report with --svg exits 0" "$?" 0
expect_match "the text report has the merged count" "$(cat "$scratch/text")" '^memcpy: 900 calls'
if python3 -c "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); fills = [e.get('fill') for e in r.iter('{http://www.w3.org/2000/svg}rect')]; sys.exit(0 if r.tag.endswith('svg') and fills.count('#1f5fbf') >= 3 and fills.count('#e07000') >= 3 else 1)" "$scratch/plot.svg"; then
	pass "the SVG is well-formed with bars of calls and bytes for every function"
else
	fail "the SVG is not well-formed"
fi
expect_eq "fleetbench CSV has three lines" "$(wc -l <"$scratch/fb_Memcpy.csv")" 3
expect_match "fleetbench CSV sizes" "$(head -1 "$scratch/fb_Memcpy.csv")" '^17:0\.333333333,100:0\.333333333,4096:0\.333333333$'

# Bad dump files are named and left out, with status 1.
printf 'memshim-histogram 1\npid 1\n' >"$dir/truncated"
printf 'memshim-histogram 10\nend\n' >"$dir/future"
: >"$dir/empty"
report_json "$dir/truncated"
expect_eq "truncated dump: status 1" "$rc_report" 1
expect_match "truncated dump: reason" "$(cat "$scratch/report.err")" 'truncated'
report_json "$dir/future"
expect_match "future version: reason" "$(cat "$scratch/report.err")" 'unsupported format version'
report_json "$dir/empty" "$dir"/h.*
expect_eq "an empty file among good ones: status 1" "$rc_report" 1
expect_match "... and the good ones still reported" "$(cat "$scratch/report.json")" '"calls": 900'

finish
