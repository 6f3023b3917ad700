#!/bin/sh
# memshim bench end to end, kept to a few seconds: few sizes, rounds and
# variants.  Checks the shape of what it writes, never a timing.
. "${top_srcdir:-.}/tests/lib.sh"
MEMSHIM_DISTRIBUTIONS=${top_srcdir:-.}/data/distributions
export MEMSHIM_DISTRIBUTIONS
bench() { "$T_MEMSHIM_TOOL" bench "$@" >"$scratch/out" 2>"$scratch/err"; rc=$?; }

MEMSHIM_MOVSB_THRESHOLD=5000 MEMSHIM_STOSB_THRESHOLD=6000 MEMSHIM_MOVSB_STOP_THRESHOLD=70000 \
	bench --quick --rounds 3 --functions memcpy,memset --variants fsrm,scalar --cases sweep,align,dist \
	--sizes 0,64,4K --csv "$scratch/b.csv" --svg "$scratch/b.svg"
expect_eq "bench runs" "$rc" 0
expect_eq "bench writes nothing on stderr" "$(cat "$scratch/err")" ""
expect_match "the header names the clock" "$(cat "$scratch/out")" '^clock: +(CPU cycles|clock_gettime\(CLOCK_MONOTONIC\) ns)'
# Without a core-cycle counter (as in most virtual machines) the line says why
# in a sentence, never as a C library error string, and never that there is
# no cycle counter at all: the time-stamp counter is one (at a fixed rate,
# not the core's).
expect_match "the clock line says why in words" "$(grep '^clock:' "$scratch/out")" \
	'^clock: +(CPU cycles .*|.*\(no core-cycle counter: (none on this CPU or VM|perf events not allowed \(perf_event_paranoid\)|this kernel has no perf events|perf_event_open cannot open one here)\))$'
expect_eq "CSV columns" "$(head -n 1 "$scratch/b.csv")" \
	"function,variant,case,size,alignment,placement,median,p10,p90,unit,ratio_to_glibc,bytes_per_unit,ratio_low,ratio_high,movsb,stosb,read_back,movsb_stop,pairs,aa_ratio,aa_low,aa_high,processes,disagree,in_use"
# 3 sizes in L1 and cold, each function's alignment pairs at 2 sizes, one distribution each
# in four placements.
for variant in fsrm scalar glibc; do
	expect_eq "memcpy sweep lines for $variant" \
		"$(awk -F, -v v=$variant '$1 == "memcpy" && $2 == v && $3 == "sweep"' "$scratch/b.csv" | wc -l)" 6
	expect_eq "memset align lines for $variant" \
		"$(awk -F, -v v=$variant '$1 == "memset" && $2 == v && $3 == "align"' "$scratch/b.csv" | wc -l)" 10
	expect_eq "memcpy fleet distribution lines for $variant: one per placement" \
		"$(awk -F, -v v=$variant '$2 == v && $3 == "dist" && $4 == "Memcpy_Fleet" { print $6 }' "$scratch/b.csv" |
			LC_ALL=C sort | tr '\n' ' ')" "L1 L2 L3 cold "
done
expect_eq "only the variants asked for, and glibc" "$(cut -d, -f2 "$scratch/b.csv" | sed 1d | sort -u | tr '\n' ' ')" \
	"fsrm glibc scalar "
expect_eq "every line has 25 fields and a positive median" \
	"$(awk -F, 'NR > 1 && (NF != 25 || !($7 > 0))' "$scratch/b.csv" | wc -l)" 0
# --rounds N: exactly N pairs for every variant; glibc's column counts its
# batches of every pair (two variants: 3 pairs each, 3 A/A pairs).
expect_eq "--rounds 3: 3 pairs a variant" \
	"$(awk -F, 'NR > 1 && $2 != "glibc" { print $19 }' "$scratch/b.csv" | sort -u)" 3
expect_eq "--rounds 3: glibc's batches of every pair" \
	"$(awk -F, 'NR > 1 && $2 == "glibc" { print $19 }' "$scratch/b.csv" | sort -u)" 9
expect_eq "every A/A ratio lies in its interval" \
	"$(awk -F, 'NR > 1 && !($21 <= $20 + 0.0001 && $20 <= $22 + 0.0001 && $21 > 0)' "$scratch/b.csv" | wc -l)" 0
expect_match "the tables have an A/A column" "$(cat "$scratch/out")" '^size +glibc +A/A +fsrm +scalar$'
expect_match "the run states its resolution" "$(cat "$scratch/out")" \
	'^Resolution: glibc against itself \(A/A\) strayed at most [0-9.]+% from 1 over [0-9]+ cases$' 
expect_eq "without --read-back no destination is read after its call" \
	"$(awk -F, 'NR > 1 { print $17 }' "$scratch/b.csv" | sort -u)" "0"
expect_eq "and the rep thresholds it ran under, from the environment" \
	"$(awk -F, 'NR > 1 { print $15 "," $16 "," $18 }' "$scratch/b.csv" | sort -u)" "5000,6000,70000"
expect_eq "every ratio lies in its interval (ratio_low <= ratio_to_glibc <= ratio_high)" \
	"$(awk -F, 'NR > 1 && !($13 <= $11 + 0.0001 && $11 <= $14 + 0.0001 && $13 > 0)' "$scratch/b.csv" | wc -l)" 0
svg=$(python3 -c 'import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
print(r.tag, sum(1 for e in r.iter() if e.tag.endswith("polyline")))' "$scratch/b.svg" 2>&1)
expect_eq "the SVG is well-formed, one line per variant and panel" "$svg" "{http://www.w3.org/2000/svg}svg 12"
expect_eq "the text fits 100 columns" "$(awk 'length > 100' "$scratch/out")" ""
expect_match "few variants: their names head the columns" "$(cat "$scratch/out")" '^size +glibc +A/A +fsrm +scalar$'

# Every variant: the text still fits 100 columns (letters head the columns,
# a key names them), a summary per function names the fastest variant per
# size class and where the best single variant loses to glibc, and the
# SVG's legend gives each variant a colour of its own, inside the image.
bench --rounds 3 --functions memcpy --cases sweep,class --sizes 64,4K --svg "$scratch/all.svg"
expect_eq "every variant: bench runs" "$rc" 0
expect_eq "every variant: the text fits 100 columns" "$(awk 'length > 100' "$scratch/out")" ""
variants=$("$T_MEMSHIM_TOOL" info | awk '/^Variants:/ { on = 1; next } /^Presets/ { on = 0 } on && $2 == "usable" { print $1 }' | wc -l)
expect_match "every variant: a summary for memcpy" "$(sed -n '/^Summary:/,$p' "$scratch/out")" '^memcpy$'
expect_eq "every variant: a summary line per size class" \
	"$(sed -n '/^Summary:/,$p' "$scratch/out" | grep -cE '^  [0-9]+( [BKM]i?B?)?-[0-9]+ [KM]?i?B (L1|cold) ')" 9
expect_match "every variant: the best single variant, and where it loses to glibc" "$(cat "$scratch/out")" \
	'^  one variant for every class: [a-z0-9_]+, [0-9.]+x glibc.s time'
expect_match "every variant: ... where it loses" "$(cat "$scratch/out")" '^  classes\); slower than glibc beyond noise in:'
summary=$(sed -n '/^Summary:/,/^memcpy$/p' "$scratch/out" | tr '\n' ' ')
expect_match "the summary says on what it rests: one placement" "$summary" \
	"Each class's data in one placement \(L1 to 32 KiB, cold above; --every-placement times all four\)"
expect_match "the summary says what beyond noise means" "$summary" \
	'"Beyond noise": the interval wholly beyond 1 and beyond the case.s A/A deviation'
expect_match "the summary says on what it rests: the stub not counted" "$summary" \
	'called directly, without the exported stub .*\(--stub-probe times its cost\)'
bench --rounds 3 --functions memset --variants avx2 --cases class --every-placement --stub-probe --sizes 64
summary=$(sed -n '/^Summary:/,/^memset$/p' "$scratch/out" | tr '\n' ' ')
expect_match "without --read-back the summary says the calibration reads back" "$summary" \
	'No destination is read after its call; the calibration reads those of its cases from 512 B on'
expect_eq "without --in-use no case writes its sources first" "$(awk -F, 'NR > 1 { print $25 }' "$scratch/b.csv" | sort -u)" 0
# --in-use: every case, each call's source written before it and its
# destination read after it (the CSV's last column; the summary says so).
bench --rounds 3 --functions memcpy --variants sse2 --cases sweep,class --sizes 8,4K --in-use --csv "$scratch/iu.csv"
expect_eq "--in-use runs" "$rc $(cat "$scratch/err")" "0 "
expect_eq "--in-use: every line says so" "$(awk -F, 'NR > 1 { print $25 }' "$scratch/iu.csv" | sort -u)" 1
expect_match "--in-use: the summary says so" "$(tr '\n' ' ' <"$scratch/out")" \
	"Each call's source is written just before it and its destination read after it \\(--in-use\\)"
# --read-back: the cases whose sizes start at 512 B or more (as the
# calibration's), and only those, read each destination back.
bench --rounds 3 --functions memcpy,memset --variants sse2 --cases sweep,class,dist --sizes 64,511,512,4K \
	--read-back --csv "$scratch/rb.csv"
expect_eq "--read-back runs" "$rc $(cat "$scratch/err")" "0 "
expect_eq "--read-back: the sweep sizes from 512 B read back, those below not" \
	"$(awk -F, '$1 == "memcpy" && $2 == "sse2" && $3 == "sweep" && $6 == "L1" { printf "%s:%s ", $4, $17 }' "$scratch/rb.csv")" \
	"64:0 511:0 512:1 4096:1 "
expect_eq "--read-back: classes from 1 KiB read back, those below and the distributions not" \
	"$(awk -F, '$1 == "memset" && $2 == "glibc" && ($4 == "257 B-1 KiB" || $4 == "1-4 KiB" || $3 == "dist") {
		print $3 "," ($3 == "dist" ? "every" : $4) "," $17 }' "$scratch/rb.csv" | sort -u | tr '\n' ' ')" \
	"class,1-4 KiB,1 class,257 B-1 KiB,0 dist,every,0 "
summary=$(sed -n '/^Summary:/,/^memcpy$/p' "$scratch/out" | tr '\n' ' ')
expect_match "--read-back: the summary says so" "$summary" \
	'Each call of a case from 512 B on is followed by a read of its destination, as in the calibration'
bench --rounds 3 --functions memset --variants avx2 --cases class --every-placement --stub-probe --sizes 64
summary=$(sed -n '/^Summary:/,/^memset$/p' "$scratch/out" | tr '\n' ' ')
expect_match "every placement: the summary says so" "$summary" "Each class's data in L1, L2, L3 and cold\."
expect_match "with the stub probe: the summary says what it is" "$summary" '"stub" is glibc behind a copy of the exported stub'
python3 - "$scratch/all.svg" >"$scratch/legend" 2>&1 <<'PY'
import sys, xml.etree.ElementTree as E
root = E.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
width = float(root.get("width"))
texts = [t for t in root.iter(ns + "text") if t.get("x") is not None]
# legend entries: a short line, then its name, above the first panel
lines = [l for l in root.iter(ns + "line") if l.get("y1") == l.get("y2") and abs(float(l.get("x2")) - float(l.get("x1")) - 24) < 0.01]
names = [t.text for t in texts if any(abs(float(t.get("x")) - float(l.get("x1")) - 30) < 0.01 and abs(float(t.get("y")) - float(l.get("y1")) - 4) < 0.01 for l in lines)]
strokes = {(l.get("stroke"), l.get("stroke-dasharray")) for l in lines}
right = max(float(t.get("x")) + 7.2 * len(t.text) for t in texts if t.text in names)
print(len(lines), len(names), len(strokes), "inside" if right <= width else "outside %.0f > %.0f" % (right, width))
PY
expect_eq "the SVG's legend: every variant named, each its own colour, inside the image" "$(cat "$scratch/legend")" \
	"$variants $variants $variants inside"

# Size classes and both distribution formats, with memmove overlapping.
printf '0,1,0,2' >"$scratch/OneLine.csv"
printf '8:0.5,4096:0.5\n0:0.5,1:0.5\n1:0.5,64:0.5\n' >"$scratch/Three.csv"
bench --rounds 3 --functions memmove --variants movsq --cases class,dist --distribution "$scratch/OneLine.csv" \
	--distribution "$scratch/Three.csv" --csv "$scratch/c.csv"
expect_eq "bench --distribution runs" "$rc" 0
expect_eq "9 size classes without overlap and 9 with, per variant" \
	"$(cut -d, -f3 "$scratch/c.csv" | sort | uniq -c | awk '{ printf "%s=%s ", $2, $1 }')" \
	"case=1 class=18 class-overlap=18 dist=16 "
# bench's size classes are report's (which adds one beyond them).
printf '%s\n' "memshim-histogram 3" "pid 1" "program p" "reason exit" "function memcpy" "bucket 96 104 1 100" "end" \
	>"$scratch/one.hist"
expect_eq "bench's size classes are report's" "$(cut -d, -f3,4 "$scratch/c.csv" | sed -n 's/^class,//p' | awk '!seen[$0]++' | tr '\n' ';')" \
	"$("$T_MEMSHIM_TOOL" report --json "$scratch/one.hist" | python3 -c 'import json, sys
print("".join(c["name"] + ";" for c in json.load(sys.stdin)["functions"]["memcpy"]["size_classes"][:-1]))')"
expect_match "the table has the class summary" "$(sed -n '/^memmove-overlap: size classes/,/^$/p' "$scratch/out")" '^4-16 MiB cold +[0-9.]+ [mun]?s +[0-9.]+ +[0-9.]+$'

# --processes 2: each case measured in two processes, one after the other,
# each with buffers of its own; the pairs add up, and the run says whether
# the processes agreed.
bench --rounds 3 --processes 2 --functions memcpy --variants scalar --cases sweep --sizes 64 --csv "$scratch/p.csv"
expect_eq "--processes 2 runs, nothing on stderr" "$rc $(cat "$scratch/err")" "0 "
expect_eq "--processes 2: the pairs of both processes" \
	"$(awk -F, 'NR > 1 && $2 == "scalar" { print $19 }' "$scratch/p.csv" | sort -u)" 6
expect_match "--processes 2: the run says whether they agreed" "$(cat "$scratch/out")" \
	'^  (the 2 processes agreed within their intervals in every case|[0-9]+ in all, of cases measured in 2 processes each)$'
expect_eq "--processes 2: every ratio lies in its interval" \
	"$(awk -F, 'NR > 1 && !($13 <= $11 + 0.0001 && $11 <= $14 + 0.0001 && $13 > 0)' "$scratch/p.csv" | wc -l)" 0

# --cases hazard: every case of the catalogue (tools/util/hazards.c) at its
# quick size, named "HAZARD:WHERE" in the alignment column, each in its
# placement; the summary names each hazard of each function once.
bench --quick --rounds 3 --variants scalar --cases hazard --csv "$scratch/h.csv"
expect_eq "--cases hazard runs, nothing on stderr" "$rc $(cat "$scratch/err")" "0 "
expect_eq "--cases hazard: the catalogue's cases of the quick run" \
	"$(awk -F, 'NR > 1 && $2 == "glibc" { printf "%s %s %s %s; ", $1, $4, $5, $6 }' "$scratch/h.csv")" \
	"$(printf '%s' "memcpy 8192 alias4k:4k+1 L1; memcpy 8192 alias4k:4k+16 L1; memcpy 8192 alias4k:4k+63 L1; " \
		"memcpy 8192 alias4k:4k-16 L1; memcpy 8192 alias4k:4k+2048 L1; memcpy 65536 misalign:s0/d1 L1; " \
		"memcpy 65536 misalign:s1/d0 L1; memcpy 65536 misalign:s0/d33 L1; " \
		"memmove 8192 alias4k:4k+1 L1; memmove 8192 alias4k:4k+16 L1; memmove 8192 alias4k:4k+63 L1; " \
		"memmove 8192 alias4k:4k-16 L1; memmove 8192 alias4k:4k+2048 L1; memmove 65536 overlap:+1 L1; " \
		"memmove 65536 overlap:+16 L1; memmove 65536 overlap:+33 L1; memmove 65536 overlap:+63 L1; " \
		"memmove 65536 misalign:s0/d1 L1; memmove 65536 misalign:s1/d0 L1; memmove 65536 misalign:s0/d33 L1; " \
		"memset 2048 stosb:d0 L1; ")"
expect_eq "--cases hazard: one summary line per function and hazard" \
	"$(sed -n '/^Hazards:/,/^$/p' "$scratch/out" | awk '$3 == "glibc" { printf "%s %s; ", $1, $2 }')" \
	"memcpy alias4k; memcpy misalign; memmove alias4k; memmove overlap; memmove misalign; memset stosb; "
expect_match "and each says which columns fall off a cliff" "$(sed -n '/^Hazards:/,/^$/p' "$scratch/out")" \
	'over 1\.5x the best somewhere:'

# Bad arguments: status 2, one line on stderr, no run.
for args in "--functions memcpy,strcpy" "--variants nosuch" "--sizes 12Q" "--sizes 65M" "--rounds 1" \
	"--rounds" "--seconds 0" "--seconds 1e9" "--seconds nan" "--seconds 2x" "--processes 0" "--processes 10" "--frobnicate" "--cases sweep,nothing" "--csv /nonexistent/dir/x.csv --cases dist"; do
	bench $args
	expect_eq "bench $args: exit status" "$rc" 2
	expect_eq "bench $args: one line on stderr" "$(wc -l <"$scratch/err")" 1
done
# A distribution that cannot be read: status 1, as in every command, one line, no run.
# One size per line is not the three-line format: its second line is no overlap, its
# third no alignment, and a fourth line has no meaning.
printf '3:1\n7:1\n' >"$scratch/SizePerLine.csv"
printf '8:1\n0:1\n12:1\n' >"$scratch/BadAlignment.csv"
printf '8:1\n0:1\n8:1\n40:1\n' >"$scratch/FourLines.csv"
for args in "--distribution $scratch/missing.csv" "--distribution $scratch/b.svg" \
	"--distribution $scratch/SizePerLine.csv" "--distribution $scratch/BadAlignment.csv" \
	"--distribution $scratch/FourLines.csv"; do
	bench $args
	expect_eq "bench $args: exit status" "$rc" 1
	expect_eq "bench $args: one line on stderr" "$(wc -l <"$scratch/err")" 1
done
expect_match "a second line with a size in it is refused as overlap" \
	"$(bench --distribution "$scratch/SizePerLine.csv"; cat "$scratch/err")" 'line 2: overlap keys are 0 and 1, not 7'
bench --help
expect_match "bench --help" "$(cat "$scratch/out")" '^usage: memshim bench'

finish
