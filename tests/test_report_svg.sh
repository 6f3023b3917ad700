#!/bin/sh
# memshim report --svg draws sampled time as what it is: each function's
# share of CPU time with its 95% interval under the panel's heading, each time
# bar with its interval, and a time bar of fewer than 10 samples hatched and
# faded.  A hand-made dump: memcpy calls of 4 KiB with 100 of the profile's
# 500 samples, and of 64 B with 3.
. "${top_srcdir:-.}/tests/lib.sh"
tool=$T_MEMSHIM_TOOL
printf '%s\n' "memshim-histogram 2" "pid 10" "program prof" "reason exit" "variant memcpy glibc" \
	"variant memmove glibc" "variant memset glibc" "function memcpy" "bucket 64 72 5000 320000" \
	"bucket 4096 4608 1000 4096000" "profile 250 500 2000000000 2000000000 2100000000 0" "function memcpy" \
	"cpu 64 72 3 12000000" "cpu 4096 4608 100 400000000" "end" >"$scratch/prof"
"$tool" report --svg "$scratch/plot.svg" "$scratch/prof" >/dev/null 2>"$scratch/err"
expect_eq "report --svg runs" "$?:$(cat "$scratch/err")" "0:"
python3 - "$scratch/plot.svg" >"$scratch/check" 2>&1 <<'PY'
import re, sys, xml.etree.ElementTree as ET
svg = ET.parse(sys.argv[1]).getroot()
s = "{http://www.w3.org/2000/svg}"
texts = ["".join(t.itertext()) for t in svg.iter(s + "text")]
print("heading:", [t for t in texts if "of CPU time (95%" in t][0])
green = [r for r in svg.iter(s + "rect") if r.get("x") and r.get("fill") in ("#2a9d3a", "url(#few-samples)")]
print("time bars:", len(green), "hatched:", sum(r.get("class") == "few-samples" for r in green))
few = [r for r in green if r.get("class") == "few-samples"][0]
solid = [r for r in green if r.get("class") != "few-samples"][0]
print("the hatched one is the smaller:", float(few.get("height")) < float(solid.get("height")))
whiskers = [p for p in svg.iter(s + "path") if p.get("class") == "interval"]
print("whiskers:", len(whiskers))
for bar in (few, solid):
    x = float(bar.get("x")) + float(bar.get("width")) / 2
    top = float(bar.get("y"))
    spans = [tuple(float(v) for v in re.match(r"M([0-9.]+) ([0-9.]+)V([0-9.]+)", p.get("d")).groups()) for p in whiskers]
    print("a whisker through the bar's top:", any(abs(w[0] - x) < 0.2 and w[2] <= top + 0.1 <= w[1] + 0.2 for w in spans))
print("the caption says so:", any("hatched and faded below 10 samples" in t for t in texts))
PY
expect_eq "svg: the share's interval, a whisker per time bar, few samples hatched" "$(cat "$scratch/check")" \
"heading: 20.6% of CPU time (95%: 17.3–24.4%), 412.0 ms
time bars: 2 hatched: 1
the hatched one is the smaller: True
whiskers: 2
a whisker through the bar's top: True
a whisker through the bar's top: True
the caption says so: True"

# Nothing replaced without a word: an output file that exists is refused
# before anything is read, and left as it was, unless --force.
echo "the user's plot" >"$scratch/mine.svg"
"$tool" report --svg "$scratch/mine.svg" "$scratch/prof" >"$scratch/out" 2>"$scratch/err"
expect_eq "report --svg onto an existing file: 2, one line, nothing printed, the file kept" \
	"$?:$(cat "$scratch/err"):$(wc -c <"$scratch/out"):$(cat "$scratch/mine.svg")" \
	"2:memshim report: $scratch/mine.svg exists (--svg never replaces a file without --force):0:the user's plot"
"$tool" report --force --svg "$scratch/mine.svg" "$scratch/prof" >/dev/null 2>"$scratch/err"
expect_eq "... --force replaces it" "$?:$(cat "$scratch/err"):$(head -c 5 "$scratch/mine.svg")" "0::<?xml"
echo "the user's profile" >"$scratch/mine.pb.gz"
"$tool" report --pprof "$scratch/mine.pb.gz" "$scratch/prof" >/dev/null 2>"$scratch/err"
expect_match "report --pprof onto an existing file: refused (or no pprof in this build), the file kept" \
	"$?:$(cat "$scratch/err"):$(cat "$scratch/mine.pb.gz")" \
	"^2:memshim report: (.*mine.pb.gz exists \(--pprof never replaces a file without --force\)|--pprof: .*):the user's profile$"
echo "the user's table" >"$scratch/fb-Memset.csv"
"$tool" report --fleetbench-csv "$scratch/fb-" "$scratch/prof" >/dev/null 2>"$scratch/err"
expect_eq "report --fleetbench-csv where one of its files exists: refused, none written" \
	"$?:$(ls "$scratch"/fb-* | wc -l):$(cat "$scratch/fb-Memset.csv")" "2:1:the user's table"

# A recording with a profile and timed calls: every line of text fits in
# the plot's width (at a generous 0.62 em a character), the panels'
# headings with their times too.
"$tool" record -o "$scratch/rec" --profile --timing=4 --report "$scratch/rec.txt" -- \
	"$top_builddir/tests/profile_program" mix 1 >/dev/null 2>&1
"$tool" report --svg "$scratch/timed.svg" "$scratch/rec" >/dev/null 2>"$scratch/err"
python3 - "$scratch/timed.svg" >"$scratch/check" 2>&1 <<'PY'
import sys, xml.etree.ElementTree as ET
svg = ET.parse(sys.argv[1]).getroot()
width = float(svg.get("width"))
s = "{http://www.w3.org/2000/svg}"
timed = [t for t in svg.iter(s + "text") if "ns per call (timed)" in "".join(t.itertext())]
print("the headings name the timed ns per call:", len(timed) >= 1)
for t in svg.iter(s + "text"):
    if t.get("text-anchor") in (None, "start"):
        text = "".join(t.itertext())
        end = float(t.get("x")) + 0.62 * float(t.get("font-size")) * len(text)
        if end > width:
            print("past the right edge (%.0f > %.0f): %s" % (end, width, text))
PY
expect_eq "svg with --timing: no text past the right edge" "$(cat "$scratch/check")" \
	"the headings name the timed ns per call: True"
finish
