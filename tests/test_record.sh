#!/bin/sh
# memshim record, merge, report and tune on files and directories: one merged
# dump per recording, never over another recording, record's options (one
# parser with run's; nothing left by a failed start), merge round trips, per-program breakdown and filter,
# readable call sites (function and file:line from a -g program), folded
# stacks, JSON call sites and CPU shares (from a hand-made version-2 dump
# with a profile), and the SVG's shared x axis and title.
. "${top_srcdir:-.}/tests/lib.sh"
LC_ALL=C
export LC_ALL
tool=$T_MEMSHIM_TOOL
case $top_builddir in /*) ;; *) top_builddir=$(pwd)/$top_builddir ;; esac
quickstart=${top_srcdir:-.}/quickstart.sh
case $quickstart in /*) ;; *) quickstart=$(pwd)/$quickstart ;; esac
program=$top_builddir/tests/hist_program
json_get() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

# record: a shell running the program twice and ls, exit status 3 (the
# shell, dash, copies too, and leaves through _exit: four processes).
cd "$scratch" || exit 1
"$tool" record -o rec --keep -- sh -c "'$program' calls 10; '$program' calls 5; ls >/dev/null; exit 3" \
	>"$scratch/out" 2>"$scratch/err"
expect_eq "record exits with the command's status" "$?" 3
expect_eq "record writes one merged dump" "$(ls rec)" "merged
processes"
expect_match "record prints the report on stderr" "$(cat "$scratch/err")" '^hist_program, ls and sh, 4 processes'
expect_match "... whose header counts the file read, not dumps 'merged'" "$(cat "$scratch/err")" \
	'^hist_program, ls and sh, 4 processes \(read from 1 file\)$'
expect_eq "... and stdout is the command's alone" "$(grep -c '^pid ' "$scratch/out"):$(grep -vc '^pid ' "$scratch/out")" "2:0"
expect_eq "--keep leaves the per-process dumps" "$(ls rec/processes | wc -l)" 4
"$tool" record -o rec -- true >/dev/null 2>"$scratch/err"
expect_match "record refuses a directory that holds a recording" "$?:$(cat "$scratch/err")" '^2:.*holds a recording'
"$tool" record -o rec2 -- "$program" calls 3 >/dev/null 2>&1
expect_eq "without --keep only the merged dump stays" "$(ls rec2)" "merged"

# Nothing is ever overwritten: a directory with a recording of any kind (a
# merged dump alone, any dump) is refused, and the first recording survives.
cp rec2/merged "$scratch/first"
"$tool" record -o rec2 -- "$program" calls 5 >/dev/null 2>"$scratch/err"
expect_match "a second record -o into a merged dump: refused" "$?:$(cat "$scratch/err")" \
	'^2:memshim record: rec2 holds a recording already \(memshim report rec2 reads it\); give another -o, or remove it$'
expect_eq "... and the first recording survives" "$(ls rec2):$(cmp rec2/merged "$scratch/first" && echo same)" \
	"merged:same"
mkdir lone && cp rec2/merged lone/some-dump
"$tool" record -o lone -- "$program" calls 5 >/dev/null 2>&1
expect_eq "a directory with any dump in it: refused, untouched" "$?:$(ls lone)" "2:some-dump"
mkdir other && echo notes >other/notes.txt
"$tool" record -o other -- "$program" calls 5 >/dev/null 2>&1
expect_eq "a directory with other files: recorded into" "$?:$(ls other | tr '\n' ' ')" "0:merged notes.txt "
# Without -o: memshim-record, then memshim-record.1, ..., each said.
mkdir twice && cd twice || exit 1
"$tool" record -- "$program" calls 4 >"$scratch/out" 2>&1
expect_match "record twice: the first in memshim-record" "$(tail -n 1 "$scratch/out")" '^the merged dump: memshim-record/merged$'
cp memshim-record/merged "$scratch/first"
"$tool" record -- "$program" calls 6 >"$scratch/out" 2>&1
expect_match "record twice: the second beside it, and says so" "$(tail -n 1 "$scratch/out")" \
	'^the merged dump: memshim-record\.1/merged \(memshim-record holds an earlier recording, kept as it was\)$'
expect_eq "record twice: the first survives" "$(cmp memshim-record/merged "$scratch/first" && echo same)" same
json_calls() { "$tool" report --json "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["functions"]["memcpy"]["calls"])'; }
expect_eq "record twice: each recording has its own calls" "$(json_calls memshim-record/merged) $(json_calls memshim-record.1/merged)" "12 18"
cd "$scratch" || exit 1

# One parser for record's options and run's: prefixes, --opt=value, -o=DIR,
# -oDIR, messages that name record, and nothing left after a failed start.
"$tool" record --prof -o=preq --report "$scratch/report" -- "$top_builddir/tests/profile_program" mix 1 >"$scratch/out" 2>"$scratch/err"
expect_eq "record --prof (a prefix) -o=DIR: status, stderr, directory" "$?:$(cat "$scratch/err"):$(ls preq)" "0::merged"
expect_match "... the profile was on (--report FILE)" "$(cat "$scratch/report")" '^time \(MEMSHIM_PROFILE'
"$tool" record -orecs --imp=scalar -- "$program" calls 2 >"$scratch/out" 2>&1
expect_eq "record -oDIR --imp=scalar (run's option, a prefix)" "$?:$(ls recs)" "0:merged"
expect_match "... the variant was scalar" "$(cat "$scratch/out")" 'variant scalar'
mkdir fresh && cd fresh || exit 1
for args in "--bogus" "--impl=AVX" "--profile=x" "--sites=0" "-x" "-o"; do
	# shellcheck disable=SC2086
	"$tool" record $args -- "$program" calls 2 >"$scratch/out" 2>"$scratch/err"
	expect_eq "record $args: status 2, one line that names record [$(cat "$scratch/err")]" \
		"$?:$(wc -l <"$scratch/err"):$(cut -d: -f1 "$scratch/err")" "2:1:memshim record"
done
"$tool" record -- memshim-no-such-command >/dev/null 2>"$scratch/err"
expect_match "record of a command that is not there: 127, said" "$?:$(cat "$scratch/err")" \
	'^127:memshim record: cannot run memshim-no-such-command: '
"$tool" record -- true >/dev/null 2>"$scratch/err"
expect_match "record of a command that makes no call: said" "$?:$(cat "$scratch/err")" '^0:memshim record: no process'
expect_eq "after all of these, nothing is left behind" "$(ls -A)" ""
cd "$scratch" || exit 1
"$tool" record -o rec3 -- sh -c "'$program' calls 3; echo junk >rec3/processes/junk" >/dev/null 2>"$scratch/err"
expect_match "a bad dump in a recording is named" "$?:$(cat "$scratch/err")" '^0:.*junk.*left out'
expect_eq "... and kept, the only copy of what it holds" "$(ls rec3/processes)" "junk"

# A process that cannot write its dump (here its MEMSHIM_DUMP names a
# missing directory, and its stderr goes nowhere) is told in the report too.
"$tool" record -o recp -- sh -c "MEMSHIM_DUMP=/nonexistent/x.%p '$program' calls 3 >/dev/null 2>&1; '$program' calls 2" \
	>"$scratch/out" 2>"$scratch/err"
expect_match "a child's dump problem is in the report" "$(cat "$scratch/err")" \
	'^hist_program\[[0-9]+\]: MEMSHIM_DUMP="/nonexistent/x\.%p": cannot write dumps there: no such directory$'
expect_eq "... and kept in DIR/problems" "$(cat recp/problems | wc -l)" 1
"$tool" record -o recq -- "$program" calls 2 >/dev/null 2>&1
expect_eq "no problems, no problems file" "$(ls recq)" "merged"

"$tool" record --output=reco -- "$program" calls 2 >/dev/null 2>&1
expect_eq "record --output=DIR" "$?:$(ls reco)" "0:merged"
"$tool" merge --output "$scratch/mo" reco >/dev/null 2>&1
expect_eq "merge --output OUT" "$?:$(head -c 17 "$scratch/mo")" "0:memshim-histogram"
"$tool" merge -o="$scratch/mo2" reco >/dev/null 2>&1
expect_eq "merge -o=OUT" "$?:$(head -c 17 "$scratch/mo2")" "0:memshim-histogram"
"$tool" merge --out "$scratch/mo3" reco >/dev/null 2>&1
expect_eq "merge --out OUT (a prefix)" "$?:$(head -c 17 "$scratch/mo3")" "0:memshim-histogram"
"$tool" merge --outptu "$scratch/mo4" reco >/dev/null 2>"$scratch/err"
expect_eq "merge --outptu: the command's own name" "$?:$(cat "$scratch/err")" \
	"2:memshim merge: unknown option --outptu (see memshim merge --help)"

# merge of N dumps = report of N dumps (JSON, but for the number of files)
strip() { sed 's/"files": [0-9]*, //' "$1"; }
"$tool" report --json rec/processes >"$scratch/many.json"
"$tool" merge -o "$scratch/m" rec/processes
expect_eq "merge runs" "$?" 0
"$tool" report --json "$scratch/m" >"$scratch/one.json"
expect_eq "merge round-trips (report --json of the merge = of its inputs)" \
	"$(strip "$scratch/one.json" | md5sum)" "$(strip "$scratch/many.json" | md5sum)"
expect_eq "the report of the merge has 4 processes" "$(json_get "$scratch/one.json" 'd["processes"]')" 4
"$tool" merge -o "$scratch/m2" "$scratch/m" rec/processes >/dev/null 2>&1
expect_eq "a merge of a merge adds up" "$(json_get /dev/stdin 'd["processes"]' <<EOT
$("$tool" report --json "$scratch/m2")
EOT
)" 8
cp "$scratch/m" "$scratch/m.copy"
"$tool" merge -o "$scratch/m" "$scratch/m" >/dev/null 2>"$scratch/err"
expect_match "merge refuses to overwrite an input" "$?:$(cat "$scratch/err")" '^2:.*m exists \(a merge never replaces a file\); give another -o$'
expect_eq "the input is intact" "$(cmp "$scratch/m" "$scratch/m.copy" && echo same)" same
echo "the user's notes" >"$scratch/notes"
"$tool" merge -o "$scratch/notes" rec/processes >/dev/null 2>"$scratch/err"
expect_eq "merge refuses any existing OUT, and leaves it as it was" "$?:$(cat "$scratch/notes")" "2:the user's notes"
echo "someone's file" >"$scratch/m3.tmp"
"$tool" merge -o "$scratch/m3" rec/processes >/dev/null 2>"$scratch/err"
expect_match "a file in the way of OUT.tmp is not truncated either" \
	"$?:$(cat "$scratch/m3.tmp"):$(test -e "$scratch/m3" || echo no-out):$(cat "$scratch/err")" \
	"^1:someone's file:no-out:memshim merge: cannot write .*m3.tmp: File exists$"
echo junk >"$scratch/bad-dump"
"$tool" merge -o "$scratch/m1" "$scratch/m" "$scratch/bad-dump" >/dev/null 2>"$scratch/err"
expect_match "merge of a good and a bad dump: 1, nothing written, said" \
	"$?:$(ls "$scratch"/m1* 2>/dev/null | wc -l):$(tail -n 1 "$scratch/err")" \
	'^1:0:memshim merge: .*/m1 not written: 1 input left out or read in part$'
"$tool" merge -o "$scratch/m1" "$scratch/m" >/dev/null 2>"$scratch/err"
expect_eq "... and the retry without it writes m1" "$?:$(cat "$scratch/err"):$(head -c 17 "$scratch/m1")" "0::memshim-histogram"
head -c 200 "$scratch/m" >"$scratch/cut"
"$tool" report "$scratch/cut" >/dev/null 2>"$scratch/err"
expect_match "a cut merged dump is said to be cut" "$(cat "$scratch/err")" 'truncated'
sed '/^sections/d' "$scratch/m" | awk '/^end$/ && ++n == 1 { print; exit } { print }' >"$scratch/first"
"$tool" report "$scratch/first" >/dev/null 2>&1
expect_eq "its first section alone is a dump" "$?" 0

# --by-program and --program
"$tool" report --by-program rec/processes >"$scratch/text"
expect_match "--by-program lists hist_program with 2 processes" "$(cat "$scratch/text")" '^  hist_program +2 '
"$tool" report --json --program ls rec/merged >"$scratch/ls.json"
expect_eq "--program keeps one program" "$(json_get "$scratch/ls.json" '[p["name"] for p in d["programs"]], d["processes"], d["functions"]["memmove"]["calls"]')" \
	"(['ls'], 1, 0)"
"$tool" report --program nosuch rec/merged >/dev/null 2>"$scratch/err"
expect_match "--program of no dump says so" "$?:$(cat "$scratch/err")" '^1:.*no dump of program nosuch'

# report and tune take directories; tune skips a bad dump; more than 256 files
printf 'memshim-histogram 2\npid 1\n' >rec/processes/zz.bad
printf 'memshim-histogram 2\npid 1\nbucket\n' >rec/processes/zz.worse
"$tool" report rec/processes >/dev/null 2>"$scratch/err"
expect_match "report reads a directory and names a cut dump in it, read in part" "$?:$(cat "$scratch/err")" \
	'^1:.*zz\.bad: .*truncated.*its complete lines are read$'
expect_match "... and a bad one, left out" "$(cat "$scratch/err")" 'zz\.worse: line 3: .*left out$'
cal=$scratch/calibration
"$tool" tune --calibrate --tiny --calibration "$cal" rec/processes >"$scratch/out" 2>"$scratch/err"
expect_match "tune reads a directory, skips the bad dump, exits 1" "$?:$(grep worse "$scratch/err")" '^1:.*zz\.worse: .*left out$'
expect_match "... and still predicts (a best setting, or the model's pick where it is none)" "$(cat "$scratch/out")" \
	'^(  )?MEMSHIM_'
rm rec/processes/zz.bad rec/processes/zz.worse
# A folder of recordings with their plots and calibrations beside them, as
# the quickstart leaves them: each recording read, the rest said in one line.
mkdir folder && cp -r rec folder/a && cp -r rec folder/b
echo '<svg/>' >folder/a.svg && echo calibration >folder/a.calibration && echo notes >folder/notes
"$tool" report --json folder >"$scratch/folder.json" 2>"$scratch/err"
expect_match "a folder of recordings: read, the other files in one line" "$?:$(cat "$scratch/err")" \
	'^0:memshim report: folder: 3 files that are not dumps \(a\.calibration, a\.svg, notes\) left out$'
"$tool" report --json rec >"$scratch/rec.json" 2>/dev/null
expect_eq "... every recording in it" "$(json_get "$scratch/folder.json" 'd["processes"]')" \
	"$(($(json_get "$scratch/rec.json" 'd["processes"]') * 2))"
rm -r folder
mkdir many
i=0
while [ $i -lt 300 ]; do cp rec2/merged many/d$i; i=$((i + 1)); done
"$tool" tune --calibration "$cal" many/* >"$scratch/out" 2>"$scratch/err"
expect_eq "tune takes 300 files" "$?:$(cat "$scratch/err")" "0:"

# Readable call sites, sizes per site, --folded
if have_config HAVE_LIBUNWIND && have_config HAVE_LIBDW; then
	preloaded env MEMSHIM_DUMP="$scratch/cs" MEMSHIM_CALLSITES=1 "$program" calls 20
	"$tool" report --json "$scratch/cs" >"$scratch/cs.json"
	site=$(json_get "$scratch/cs.json" '[(c["frames"][0]["function"], c["frames"][0]["file"], c["frames"][0]["line"], c["frames"][0]["frame"], c["mean_size"]) for c in d["callsites"] if c["function"] == "memcpy" and c["mean_size"] == 4096][0]')
	expect_match "json: the 4 KiB memcpy's call site is sequence in hist_program.c" "$site" "^\('sequence', 'hist_program.c', [0-9]+, '.*/hist_program\+0x[0-9a-f]+', 4096(\.0)?\)$"
	rel=$(printf '%s\n' "$site" | sed 's/.*hist_program+\(0x[0-9a-f]*\).*/\1/')
	line=$(printf '%s\n' "$site" | sed "s/^('sequence', 'hist_program.c', \([0-9]*\),.*/\1/")
	if command -v addr2line >/dev/null; then
		expect_eq "the line is addr2line's" "$line" "$(addr2line -e "$program" "$rel" | sed 's/.*://; s/ .*//')"
	fi
	"$tool" report "$scratch/cs" >"$scratch/text"
	expect_match "text: call sites by function and file:line" "$(cat "$scratch/text")" \
		"4 KiB  memcpy   sequence \(hist_program\.c:$line, hist_program\)"
	"$tool" report --folded "$scratch/cs" >"$scratch/folded"
	expect_eq "folded: every line is frames;function value" \
		"$(grep -Evc '^[^;]+(;[^;]+)*;(memcpy|memmove|memset) [0-9]+$' "$scratch/folded")" 0
	expect_match "folded: root first, the function last" "$(cat "$scratch/folded")" ';main;sequence;memcpy [0-9]+$'
	# record --sites: the same through record
	"$tool" record -o sites --sites=1 -- "$program" calls 20 >/dev/null 2>&1
	"$tool" report --folded sites/merged >"$scratch/folded" 2>"$scratch/err"
	expect_eq "record --sites=1, report --folded: status, stderr" "$?:$(cat "$scratch/err")" "0:"
	expect_match "... the stacks" "$(cat "$scratch/folded")" ';main;sequence;memcpy [0-9]+$'
	"$tool" record -o sites100 --sites -- "$program" calls 2000 >/dev/null 2>&1
	"$tool" report --folded sites100/merged >"$scratch/folded" 2>"$scratch/err"
	expect_match "record --sites (one call in 100): stacks too" "$?:$(cat "$scratch/folded")" '^0:.*;main;sequence;mem(cpy|move|set) [0-9]+$'
else
	skip "readable call sites (built without libunwind or libdw)"
fi

# --folded without call sites: status 1, and why.
"$tool" report --folded rec2/merged >"$scratch/out" 2>"$scratch/err"
expect_match "--folded without call sites: status 1, nothing on stdout, and why" "$?:$(cat "$scratch/out"):$(cat "$scratch/err")" \
	'^1::memshim report: no call sites were recorded in these dumps.*memshim record --sites'

# A version-2 dump with a profile: 100 of 500 samples in 4 KiB memcpy calls.
cat >"$scratch/prof" <<'EOT'
memshim-histogram 2
pid 10
program prof
reason exit
variant memcpy glibc
variant memmove glibc
variant memset glibc
threshold erms 2048
threshold stosb 2048
entry memcpy 1000
function memcpy
bucket 4096 4608 1000 4096000
callsite memcpy 10 40960 /nonexistent/prof+0x1234
profile 250 500 2000000000 2000000000 2100000000 0
function memcpy
cpu 4096 4608 100 400000000
cpu_site memcpy 100 400000000 main+0x1d(/nonexistent/prof+0x1234)
end
EOT
"$tool" report --json "$scratch/prof" >"$scratch/prof.json"
expect_eq "json: cpu_share, its interval and cpu_ns" \
	"$(json_get "$scratch/prof.json" '[round(d["functions"]["memcpy"][k], 3) for k in ("cpu_share", "cpu_share_low", "cpu_share_high")], d["functions"]["memcpy"]["cpu_ns"], d["functions"]["memset"]["cpu_ns"]')" \
	"([0.2, 0.167, 0.237], 400000000, 0)"
expect_eq "json: time per size class and per call site" \
	"$(json_get "$scratch/prof.json" '[c["cpu_ns"] for c in d["functions"]["memcpy"]["size_classes"] if c["cpu_ns"]], [(c["frame"]["function"], c["cpu_ns"]) for c in d["cpu_sites"]]')" \
	"([400000000], [('main', 400000000)])"
"$tool" report "$scratch/prof" >"$scratch/text"
# Line N of the report after its title and bottom line (to the first blank line).
body() { sed '1,/^$/d' "$scratch/text" | sed -n "$1p"; }
expect_match "the bottom line first: the three's share together" "$(sed -n 2p "$scratch/text")" \
	'^bottom line: memcpy, memmove and memset together took 20\.0% of CPU time \(16\.7.+23\.7%\), 400\.0 ms, from 100 samples$'
expect_eq "... and a version-2 share includes the recording" "$(sed -n 3p "$scratch/text")" \
	"  memshim's recording: included in that share (an older memshim wrote these dumps)"
expect_match "then time, the rate asked and taken" "$(body 1)" \
	'^time \(MEMSHIM_PROFILE, 250 samples/s asked, 250 taken\):$'
expect_match "text: a version-2 share includes the recording, and says so" "$(body 3)" \
	"^  memcpy: 20\.0% of CPU time \(16\.7.+23\.7%\), 400\.0 ms, from 100 samples \(memshim's recording included: an older memshim wrote these dumps\)$"

# A version-5 dump: the copies (cpu) and memshim's recording (recording_cpu)
# apart; 1000 samples/s asked, 250 taken (each stands for 4 ms).
sed -e 's/^memshim-histogram 2$/memshim-histogram 5/' -e 's/^pid 10$/pid 11/' \
	-e 's/^profile 250 /profile 1000 /' -e '/^profile /a recording_apart 1' \
	-e '/^cpu 4096 /a recording_cpu 25 100000000' "$scratch/prof" >"$scratch/prof3"
"$tool" report "$scratch/prof3" >"$scratch/text"
expect_match "version 5: the bottom line says what the recording added" "$(sed -n 3p "$scratch/text")" \
	"^  memshim's recording added 5\.0% of CPU time \([0-9.]+.+[0-9.]+%\) on top, not in that share$"
expect_match "version 5: the rate asked and taken, and why they differ" "$(body 1)" \
	"^time \(MEMSHIM_PROFILE, 1000 samples/s asked, 250 taken: the kernel's timer tick caps the rate; each sample stands for 4\.0 ms of CPU on$"
expect_match "version 5: a sample's weight explained" "$(body 2)" \
	"^  average \(a sample counts its timer's periods, overruns included: one may stand for several\)\):$"
expect_match "version 5: the copies' share, and the recording's apart" "$(body 4)" \
	"^  memcpy: 20\.0% of CPU time \(16\.7.+23\.7%\), 400\.0 ms, from 100 samples; and 5\.0% more in memshim's recording$"
# A call site whose 10 samples weigh 100 ms (10 ms each, the average 4):
# its share is of the time, and its interval, of the samples, is scaled to
# hold it, not clamped so that the estimate sits on its edge.
sed -e '/^cpu_site memcpy 100 /a cpu_site memcpy 10 100000000 heavy+0x1(/nonexistent/prof+0x99)' "$scratch/prof3" >"$scratch/prof4"
site=$("$tool" report "$scratch/prof4" | grep 'heavy')
expect_match "a heavy site: its share of the time" "$site" ' 5\.0% of CPU time \('
expect_eq "a heavy site: the estimate strictly inside its interval" \
	"$(printf '%s\n' "$site" | sed 's/.* \([0-9.]*\)% of CPU time (\([0-9.]*\)[^0-9.]*\([0-9.]*\)%).*/\2 < \1 < \3/' | awk '{ print ($1 < $3 && $3 < $5) }')" 1
"$tool" report --json "$scratch/prof3" >"$scratch/prof3.json"
expect_eq "version 5, json: the copies, the recording, the rate taken" \
	"$(json_get "$scratch/prof3.json" 'd["functions"]["memcpy"]["cpu_ns"], d["functions"]["memcpy"]["recording"]["cpu_ns"], round(d["functions"]["memcpy"]["recording"]["cpu_share"], 3), d["profile"]["rate_taken_hz"], d["profile"]["recording_apart"]')" \
	"(400000000, 100000000, 0.05, 250, 1)"
"$tool" merge -o "$scratch/prof23" "$scratch/prof" "$scratch/prof3"
"$tool" report "$scratch/prof23" >"$scratch/text"
expect_match "versions 2 and 5 merged: the recording counted apart in one process of two" "$(body 4)" \
	"; and 2\.5% more in memshim's recording \(counted apart in 1 of 2 processes, included above in the others\)$"
"$tool" report --json "$scratch/prof" "$scratch/prof3" >"$scratch/prof23.json"
"$tool" report --json "$scratch/prof23" >"$scratch/prof23m.json"
expect_eq "a merged dump keeps the recording apart" "$(strip "$scratch/prof23m.json" | md5sum)" \
	"$(strip "$scratch/prof23.json" | md5sum)"
"$tool" report "$scratch/cs" >"$scratch/text" 2>/dev/null || "$tool" report rec2/merged >"$scratch/text"
# (after the hazards, where this CPU's row measures one the program meets)
expect_match "without a profile, one line says how to get time" \
	"$(sed '1,/^$/d' "$scratch/text" | grep -v -e '^4 KiB-aliasing hazard' -e '^can run several' -e '^  ' | sed -n 1p)" \
	'MEMSHIM_PROFILE=on'
expect_match "... and the bottom line says it is not measured" "$(sed -n 2p "$scratch/text")" '^bottom line: not measured: '
"$tool" report --json "$scratch/prof" "$scratch/prof" >"$scratch/prof2.json"
expect_eq "merged profiles add up" "$(json_get "$scratch/prof2.json" 'd["functions"]["memcpy"]["cpu_ns"], d["profile"]["process_cpu_ns"]')" \
	"(800000000, 4000000000)"
"$tool" merge -o "$scratch/profm" "$scratch/prof" "$scratch/prof"
"$tool" report --json "$scratch/profm" >"$scratch/profm.json"
expect_eq "a merged dump keeps the profile" "$(strip "$scratch/profm.json" | md5sum)" "$(strip "$scratch/prof2.json" | md5sum)"

# A real profile through record and merge: the merged dump says what the
# process's dump said (the profile's accuracy is tests/test_profile.sh's).
"$tool" record -o prec --keep --profile --report "$scratch/prec.txt" -- "$top_builddir/tests/profile_program" mix 1 >"$scratch/out" 2>"$scratch/err"
expect_eq "record --profile runs, nothing on stderr" "$?:$(cat "$scratch/err")" "0:"
"$tool" report --json prec/merged >"$scratch/prec.json"
"$tool" report --json prec/processes >"$scratch/precp.json"
expect_eq "the merged real profile is the process's" "$(strip "$scratch/prec.json" | md5sum)" "$(strip "$scratch/precp.json" | md5sum)"
expect_eq "... and has a share of CPU time in memcpy" \
	"$(json_get "$scratch/prec.json" "0 < d['functions']['memcpy']['cpu_share'] <= d['functions']['memcpy']['cpu_share_high'] <= 1")" True

# The SVG: a title, one x range for every panel, round y ticks, time bars.
"$tool" report --svg "$scratch/plot.svg" "$scratch/prof" rec/merged >/dev/null
python3 - "$scratch/plot.svg" >"$scratch/svgcheck" <<'EOT'
import re, sys, xml.etree.ElementTree as ET
svg = ET.parse(sys.argv[1]).getroot()
ns = {"s": "http://www.w3.org/2000/svg"}
texts = ["".join(t.itertext()) for t in svg.iter("{http://www.w3.org/2000/svg}text")]
title = svg.find("s:title", ns).text
print("title:", title)
xs = [round(float(t.get("x")), 1) for t in svg.iter("{http://www.w3.org/2000/svg}text")
      if t.get("text-anchor") == "middle" and re.fullmatch(r"[0-9]+[KMGT]?|0\u201316", "".join(t.itertext()))]
per_panel = len(xs) // 3
print("x ticks the same in 3 panels:", len(xs) % 3 == 0 and xs[:per_panel] == xs[per_panel:2*per_panel] == xs[2*per_panel:])
ticks = [t for t in texts if re.fullmatch(r"[0-9.]+%", t)]
print("round y ticks:", all(re.fullmatch(r"[0-9]+(\.5|\.25|\.75)?%", t) for t in ticks) and len(ticks) >= 9)
print("time bars:", any("CPU time" in t for t in texts))
EOT
expect_eq "svg: title, shared x axis, round ticks, time" "$(cat "$scratch/svgcheck")" \
"title: memshim: prof, hist_program, ls and sh, 5 processes
x ticks the same in 3 panels: True
round y ticks: True
time bars: True"
# The quickstart records where record would by default, numbered as record
# numbers, and its header names the zstd command it runs.
expect_eq "quickstart's recording: record's default directory, record's numbering" \
	"$(sed -n 's/^[[:space:]]*recording=//p' "$quickstart" | tr '\n' ' ')" 'memshim-record memshim-record.$n '
# Its next tune reads the calibration the recording ran under (kept as
# RECORDING.calibration, which tune finds beside it): no second calibration.
expect_eq "quickstart's next tune: on the recording, without --calibrate" \
	"$(grep '^echo' "$quickstart" | grep -o 'memshim tune [^"]*' | sed 's/ *$//')" 'memshim tune $recording/merged'
expect_eq "... and the calibration it keeps is where tune looks" \
	"$(sed -n 's/^calibration=.*\/\(\$recording\.calibration\)$/\1/p' "$quickstart")" '$recording.calibration'
# --by-program with a name longer than the column: the columns stay in line
# (every line of the table as long as its heading's).
for name in sh a-program-name-much-longer-than-twenty-characters; do
	printf '%s\n' "memshim-histogram 3" "pid $((${#name} + 1))" "program $name" "reason exit" "function memcpy" \
		"bucket 96 104 10 1000" "end" >"$scratch/long.$name"
done
"$tool" report --by-program "$scratch"/long.* >"$scratch/text"
expect_eq "--by-program: a long name keeps the columns in line" \
	"$(sed -n '/^by program/,/^$/p' "$scratch/text" | sed '1d;/^$/d' | awk '{ print length($0) }' | sort -u | wc -l | tr -d ' ')" 1
# What quickstart.sh writes in the source tree is named by .gitignore.
top=$(dirname "$quickstart")
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	expect_eq "quickstart's recording, plot and calibration are ignored by git" \
		"$(cd "$top" && git check-ignore memshim-record memshim-record.svg memshim-record.calibration \
			memshim-record.2 memshim-record.2.svg memshim-record.2.calibration | wc -l | tr -d ' ')" 6
else
	skip "quickstart's files ignored by git: not a git checkout"
fi
# One bad value, one line per run: record and run say it, the processes
# they start (sh, then ls) stay quiet about it (MEMSHIM_WARNED).
for command in "record -o $scratch/bad-once" run; do
	# shellcheck disable=SC2086 # the command is words
	MEMSHIM_IMPL=nonsense "$tool" $command -- sh -c 'ls >/dev/null; true' >/dev/null 2>"$scratch/err"
	expect_eq "memshim ${command%% *}: a bad variable said once for the run, not once a process" \
		"$(grep -c '^memshim: MEMSHIM_IMPL="nonsense" is not a variant' "$scratch/err")" 1
done
expect_eq "quickstart's header names zstd -t, which it runs, not zstd -d" \
	"$(grep -c 'zstd -d' "$quickstart"):$(grep -c 'zstd -q -t ' "$quickstart")" "0:1"
finish
