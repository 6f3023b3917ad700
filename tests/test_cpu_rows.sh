#!/bin/sh
# Size bands from the environment, end to end, and the CPU row files the
# build compiles (dispatch/cpu_rows.awk): a good row, and rows that are not.
. "${top_srcdir:-.}/tests/lib.sh"
now=$top_builddir/tests/show_binding_now
rows=${top_srcdir:-.}/data/cpu-rows
awk_rows() { ${AWK:-awk} -f "${top_srcdir:-.}/dispatch/cpu_rows.awk" "$@" 2>&1; }

# Bands: the exported stub sends the first two bands to their variants and
# the rest to the third band's (with three) or to the band dispatcher (with
# more); one band is the variant itself.
preloaded env MEMSHIM_MEMCPY=glibc:64,sse2 MEMSHIM_MEMSET=scalar:256,glibc "$now"
expect_eq "MEMSHIM_MEMCPY=glibc:64,sse2: memcpy" "$(bound memcpy)" "bands:libc|memshim_memcpy_sse2"
expect_eq "mempcpy follows" "$(bound mempcpy)" "bands:libc|memshim_mempcpy_sse2"
expect_eq "__memcpy_chk follows" "$(bound __memcpy_chk)" "bands:libc|memshim_memcpy_chk_sse2"
expect_eq "bzero follows memset's bands" "$(bound bzero)" "bands:memshim_bzero_scalar|libc"
expect_eq "nothing on stderr" "$err" ""
preloaded env MEMSHIM_MEMMOVE=glibc:64,sse2:4K,scalar "$now"
expect_eq "three bands: no dispatcher" "$(bound memmove)" "bands:libc|memshim_memmove_sse2|memshim_memmove_scalar"
preloaded env MEMSHIM_MEMMOVE=glibc:64,sse2:4K,scalar:64K,erms "$now"
expect_match "four bands: the dispatcher (not exported) from the third on" "$(bound memmove)" \
	'^bands:libc\|memshim_memmove_sse2\|.*libmemshim'
expect_eq "the dispatcher is not exported" "$(nm -D "$MEMSHIM_LIBRARY" | grep -c '_banded$')" 0
preloaded env MEMSHIM_MEMCPY=sse2 "$now"
expect_eq "one band is the variant itself" "$(bound memcpy)" memshim_memcpy_sse2

# A real program's output is the same under bands that split every size range.
head -c 3000000 /dev/urandom >"$scratch/in"
cat "$scratch/in" "$scratch/in" >"$scratch/in2"
gzip -c "$scratch/in2" >"$scratch/plain.gz"
bands=scalar:16,sse2:64,glibc:256,movsq:4K,sse2:64K,erms
preloaded env MEMSHIM_MEMCPY=$bands MEMSHIM_MEMMOVE=$bands MEMSHIM_MEMSET=$bands sh -c "gzip -c '$scratch/in2' >'$scratch/banded.gz' && gzip -dc '$scratch/banded.gz' | cmp - '$scratch/in2'"
expect_eq "gzip under six bands: status" "$rc:$err" "0:"
expect_eq "and the same output" "$(cmp "$scratch/plain.gz" "$scratch/banded.gz" && echo same)" same

# memshim info shows each band and where the choice came from.
info=$(MEMSHIM_MEMCPY=glibc:256,sse2 "$T_MEMSHIM_TOOL" info)
expect_match "info shows the bands" "$info" '^  memcpy -> up to 256 B: glibc; above 256 B: sse2 .*\[MEMSHIM_MEMCPY\]$'

# Bad bands: one line, and the default instead.
for bad in glibc:64,nosuch glibc:256,sse2:64,glibc glibc:64,sse2:1M glibc,sse2 :64,sse2; do
	preloaded env MEMSHIM_MEMCPY=$bad "$now"
	expect_eq "MEMSHIM_MEMCPY=$bad: one line" "$(printf '%s\n' "$err" | grep -c '^memshim: MEMSHIM_MEMCPY=')" 1
	expect_match "MEMSHIM_MEMCPY=$bad: what is wrong, and the default" "$err" \
		"^memshim: MEMSHIM_MEMCPY=\"$bad\" (names|has|gives).*; using "
done

# The shipped rows compile; a bad row stops the build with its line.
out=$(awk_rows "$rows"/*.row)
expect_match "the shipped rows compile" "$out" "^const unsigned cpu_row_count = $(ls "$rows"/*.row | wc -l);$"
good=$scratch/good.row
cat >"$good" <<'ROW'
memshim-cpu-row 1
match GenuineIntel 6-6 143-207 avx512,erms -
measured a test CPU
choice memcpy glibc:64,avx512 why one
choice memmove glibc:64,avx512:4M,avx512_erms why two
choice memset glibc why three
ratios memcpy avx512 0.5 0.6
ROW
out=$(awk_rows "$good")
expect_match "a good row: memcpy's bands" "$out" '\{ \{ 2, \{ 64, SIZE_MAX \}, \{ VARIANT\(glibc\), VARIANT\(avx512\) \} \},'
expect_match "a good row: memmove's bands" "$out" \
	'\{ 3, \{ 64, 4194304, SIZE_MAX \}, \{ VARIANT\(glibc\), VARIANT\(avx512\), VARIANT\(avx512_erms\) \} \},'
# The table compiles; a variant that does not exist does not.
compile_rows() {
	awk_rows "$1" >"$scratch/rows.c" &&
		${CC:-cc} -std=gnu11 -fsyntax-only -I"${top_srcdir:-.}" -I"$top_builddir" -D_GNU_SOURCE "$scratch/rows.c" 2>&1
}
expect_eq "a good row compiles" "$(compile_rows "$good" >/dev/null && echo compiles)" compiles
sed 's/glibc:64,avx512 why one/glibc:64,avx521 why one/' "$good" >"$scratch/typo.row"
expect_match "a row naming a variant that does not exist stops the build" "$(compile_rows "$scratch/typo.row")" \
	"VARIANT_ID_avx521"
expect_match "a good row: its CPUs" "$out" '"good.row", "GenuineIntel", 6, 6, 143, 207, "avx512 erms", ""'
expect_match "a row without thresholds: the built-in ones (0)" "$out" '^	  0, 0, 0 },$'
printf 'thresholds movsb=16384 stosb=8192\n' >>"$good"
expect_match "a row's rep thresholds" "$(awk_rows "$good")" '^	  16384, 8192, 0 },$'
sed 's/^thresholds .*/thresholds movsb=16384 stosb=8192 movsb_stop=1048576/' "$good" >"$scratch/stop.row"
expect_match "a row's stop of the rep range" "$(awk_rows "$scratch/stop.row")" '^	  16384, 8192, 1048576 },$'
expect_eq "and it compiles" "$(compile_rows "$good" >/dev/null && echo compiles)" compiles
bad_row() { # WHAT SED-EXPRESSION EXPECTED-MESSAGE
	sed "$2" "$good" >"$scratch/bad.row"
	out=$(awk_rows "$scratch/bad.row")
	status=$?
	expect_match "a row with $1: refused" "$status $out" "^1 .*bad\\.row:[0-9]+: $3"
}
bad_row "a wrong first line" '1s/.*/memshim-cpu-row 9/' "not a memshim CPU row"
bad_row "an unknown feature" '2s/avx512,erms/avx1024/' "unknown feature"
bad_row "a backwards range" '2s/143-207/207-143/' "models range 207-143 runs backwards"
bad_row "functions out of order" '4s/memcpy/memset/' "expected choice memcpy"
bad_row "a broken band list" '5s/glibc:64,avx512/glibc:,avx512/' '".*" is not a band list'
bad_row "bounds that do not ascend" '5s/4M/32/' '".*": band bounds do not ascend'
bad_row "a bound on the last band" '6s/glibc why/glibc:64 why/' '".*": the last band has no bound'
bad_row "no memset choice" '6d' "incomplete row"
bad_row "a threshold of 0" '$s/stosb=8192/stosb=0/' '"stosb=0" is not movsb=BYTES'
bad_row "a threshold rows do not carry" '$s/stosb=8192/nt=1000000/' '"nt=1000000" is not movsb=BYTES'
bad_row "a thresholds line with nothing" '$s/ .*//' 'expected thresholds movsb=BYTES'

# memshim cpu-row --from-bench on a bench file with the stub probe, avx2
# taking 0.6 of glibc's time above 1 KiB.  Where it ties glibc to 1 KiB it
# serves every size alone, whatever the stub costs (one band has no stub).
# Where it loses at 0-16 B, the bands glibc:1K,avx2 stay while the stub
# costs 1%, and give way to glibc's own when it costs 10% at small sizes.
bench_csv() { # STUB-RATIO-TO-1K AVX2-RATIO-AT-0-16
	echo "function,variant,case,size,alignment,placement,median,p10,p90,unit,ratio_to_glibc,bytes_per_unit"
	for fn in memcpy memmove memset; do
		k=0
		for class in "0-16 B" "17-64 B" "65-256 B" "257 B-1 KiB" "1-4 KiB" "4-32 KiB" "32-256 KiB" "256 KiB-4 MiB" \
			"4-16 MiB"; do
			if [ $k -eq 0 ]; then avx2=$2 stub=$1; elif [ $k -lt 4 ]; then avx2=1.0 stub=$1; else avx2=0.6 stub=1.0; fi
			for cell in glibc:1.0 avx2:$avx2 stub:$stub; do
				echo "$fn,${cell%:*},class,$class,random,hot,10,10,10,ns,${cell#*:},1"
			done
			k=$((k + 1))
		done
	done
}
for case in 1.01:1.0:avx2 1.10:1.0:avx2 1.01:1.10:glibc:1K,avx2 1.10:1.10:glibc; do
	stub=${case%%:*} rest=${case#*:}
	bench_csv "$stub" "${rest%%:*}" >"$scratch/bench.csv"
	rm -f "$scratch/from-bench.row"
	"$T_MEMSHIM_TOOL" cpu-row --from-bench "$scratch/bench.csv" --cpu 'AuthenticAMD 25 1 erms,fsrm,avx2' \
		-o "$scratch/from-bench.row" >/dev/null 2>&1
	expect_eq "from a bench file, the stub at ${stub}x, avx2 at ${rest%%:*}x at 0-16 B: memcpy's bands" \
		"$(awk '$1 == "choice" && $2 == "memcpy" { print $3 }' "$scratch/from-bench.row")" "${rest#*:}"
done
expect_match "and why glibc's own: the nearest candidate's worst cell" "$(grep '^choice memset' "$scratch/from-bench.row")" \
	"glibc; none qualifies: avx2 1.10x at 0-16 B, data hot"
# memmove's overlapping copies count too: avx2 losing 1.5x there (and
# nowhere else) keeps memmove from it, not memcpy.
{ bench_csv 1.01 1.0; echo "memmove,avx2,class-overlap,1-4 KiB,random,hot,15,15,15,ns,1.5,1"; } >"$scratch/bench.csv"
rm -f "$scratch/overlap.row"
"$T_MEMSHIM_TOOL" cpu-row --from-bench "$scratch/bench.csv" --cpu 'AuthenticAMD 25 1 erms,fsrm,avx2' \
	-o "$scratch/overlap.row" >/dev/null 2>&1
expect_eq "an overlapping memmove's loss counts: memcpy avx2, memmove not" \
	"$(awk '$1 == "choice" && $2 != "memset" { printf "%s ", $3 }' "$scratch/overlap.row")" "avx2 glibc:4K,avx2 "
# The hazard catalogue (bench --cases hazard): a variant more than 1.5x the
# best variant's time in a case is no default.  glibc 20x the best at
# alias4k, with avx2 tying it everywhere else: avx2 takes memcpy at every
# size (the rule's fallback: nothing beats glibc by the rule), and the why
# and the row's hazards line say so; a clean glibc keeps memcpy; avx2 at
# 1.6x the best (sse2) in a hazard case is no default however good its
# classes, and an alias4k case of the old kind counts as the catalogue's.
hazard_lines() { # GLIBC AVX2 SSE2 [KIND WHERE]
	for cell in glibc:$1 avx2:$2 sse2:$3; do
		echo "memcpy,${cell%:*},${4:-hazard},8192,${5:-alias4k:4k+1},L1,10,10,10,ns,${cell#*:},1"
	done
	# the reference distance is timed, not judged
	echo "memcpy,avx2,hazard,8192,alias4k:4k+2048,L1,10,10,10,ns,9.0,1"
}
tie_csv() { bench_csv 1.01 1.0 | sed '/^memcpy,avx2,class/s/,0\.6,1$/,1.0,1/'; }
hazard_row() { # ROW < CSV
	rm -f "$scratch/$1"
	cat >"$scratch/hazard.csv"
	"$T_MEMSHIM_TOOL" cpu-row --from-bench "$scratch/hazard.csv" --cpu 'AuthenticAMD 25 1 erms,fsrm,avx2' \
		-o "$scratch/$1" >/dev/null 2>&1
	awk '$1 == "choice" && $2 == "memcpy" { print $3 }' "$scratch/$1"
}
expect_eq "glibc 20x the best in a hazard case, avx2 tying it elsewhere: memcpy avx2" \
	"$({ tie_csv; hazard_lines 1.0 0.05 0.06; } | hazard_row hz-glibc.row)" avx2
expect_match "and why: glibc falls out at that case" "$(grep '^choice memcpy' "$scratch/hz-glibc.row")" \
	"glibc 20.0x the best at hazard alias4k:8192:4k\\+1; none within 1.03 everywhere"
expect_match "the row's hazards line: each variant's multiple and case" "$(grep '^hazards memcpy' "$scratch/hz-glibc.row")" \
	'^hazards memcpy glibc:20.00:alias4k:8192:4k\+1,avx2:1.00:alias4k:8192:4k\+1$'
expect_eq "the same classes, glibc clean: glibc keeps memcpy" "$({ tie_csv; hazard_lines 1.0 0.98 0.99; } | hazard_row hz-clean.row)" glibc
expect_eq "avx2 1.6x the best in a hazard case: no default, though it wins every class" \
	"$({ bench_csv 1.01 1.0; hazard_lines 1.0 1.0 0.62; } | hazard_row hz-slow.row)" glibc
expect_eq "an alias4k case of the old kind counts (4k+16 from 2 KiB)" \
	"$({ tie_csv; hazard_lines 1.0 0.05 0.06 alias4k 4k+16; } | hazard_row hz-old.row)" avx2
expect_eq "but not below 2 KiB, nor beyond the near distances" \
	"$({ tie_csv; hazard_lines 1.0 0.05 0.06 alias4k 4k+64; } | hazard_row hz-far.row)" glibc
# Several bench files, runs of bench in processes of their own: each cell
# the median of theirs.  avx2 losing 1.5x at 1-4 KiB in one file of three
# still serves memcpy at every size; losing so in two of three, glibc
# takes it to 4 KiB.
bench_csv 1.01 1.0 >"$scratch/clean.csv"
{ bench_csv 1.01 1.0; echo "memcpy,avx2,class,1-4 KiB,random,hot,15,15,15,ns,1.5,1"; } >"$scratch/lost.csv"
from_benches() { # ROW CSV...
	row=$1
	shift
	rm -f "$scratch/$row"
	"$T_MEMSHIM_TOOL" cpu-row $(for f in "$@"; do printf -- '--from-bench %s ' "$scratch/$f"; done) \
		--cpu 'AuthenticAMD 25 1 erms,fsrm,avx2' -o "$scratch/$row" >/dev/null 2>&1
	awk '$1 == "choice" && $2 == "memcpy" { print $3 }' "$scratch/$row"
}
expect_eq "the loss in one file alone gives memcpy glibc to 4 KiB" "$(from_benches lost.row lost.csv)" "glibc:4K,avx2"
expect_eq "one file of three losing there: the median does not" \
	"$(from_benches median.row clean.csv lost.csv clean.csv)" "avx2"
expect_match "and the measured line names the three and the median" "$(grep '^measured' "$scratch/median.row")" \
	'clean.csv, .*lost.csv and .*clean.csv \(each cell the median of theirs\)'
expect_eq "two files of three losing there: it does" "$(from_benches two.row lost.csv lost.csv clean.csv)" \
	"glibc:4K,avx2"
rm -f "$scratch/six.row"
"$T_MEMSHIM_TOOL" cpu-row $(for f in 1 2 3 4 5 6; do printf -- '--from-bench %s ' "$scratch/clean.csv"; done) \
	--cpu 'AuthenticAMD 25 1 erms,fsrm,avx2' -o "$scratch/six.row" >/dev/null 2>&1
expect_eq "six files are a usage error, and no row" "$? $(test -e "$scratch/six.row" && echo written)" "2 "
# The rep thresholds a bench ran under (its CSV's last two columns) go
# into the row; files that ran under different ones make no row.
with_thresholds() { # MOVSB STOSB < CSV
	awk -F, -v m="$1" -v s="$2" 'NR == 1 { print $0 ",ratio_low,ratio_high,movsb,stosb"; next }
		{ print $0 "," $11 "," $11 "," m "," s }' OFS=,
}
with_thresholds 16384 8192 <"$scratch/clean.csv" >"$scratch/t1.csv"
with_thresholds 16384 8192 <"$scratch/clean.csv" >"$scratch/t2.csv"
with_thresholds 4096 8192 <"$scratch/clean.csv" >"$scratch/t3.csv"
from_benches thresholds.row t1.csv t2.csv >/dev/null
expect_eq "a bench's rep thresholds go into the row" "$(grep '^thresholds' "$scratch/thresholds.row")" \
	"thresholds movsb=16384 stosb=8192"
expect_eq "a bench file without them: no thresholds line" "$(from_benches plain.row clean.csv >/dev/null;
	grep -c '^thresholds' "$scratch/plain.row")" 0
rm -f "$scratch/mixed.row"
"$T_MEMSHIM_TOOL" cpu-row --from-bench "$scratch/t1.csv" --from-bench "$scratch/t3.csv" \
	--cpu 'AuthenticAMD 25 1 erms,fsrm,avx2' -o "$scratch/mixed.row" >"$scratch/out" 2>&1
expect_eq "files under different thresholds: refused, and no row" \
	"$? $(test -e "$scratch/mixed.row" && echo written)" "1 "
expect_match "and why" "$(cat "$scratch/out")" 't1.csv and .*t3.csv ran under different rep thresholds'
# A file made with bench --read-back (its last column 1 from 512 B on) is
# not merged with one made without: the read weighs the same code
# differently.  Alone, the row says how it was measured.
awk -F, 'NR == 1 { print $0 ",read_back"; next } { print $0 "," ($4 ~ /KiB|MiB/ ? 1 : 0) }' OFS=, \
	"$scratch/t1.csv" >"$scratch/r1.csv"
awk -F, 'NR == 1 { print $0 ",read_back"; next } { print $0 ",0" }' OFS=, "$scratch/t2.csv" >"$scratch/r0.csv"
rm -f "$scratch/read.row"
"$T_MEMSHIM_TOOL" cpu-row --from-bench "$scratch/r0.csv" --from-bench "$scratch/r1.csv" \
	--cpu 'AuthenticAMD 25 1 erms,fsrm,avx2' -o "$scratch/read.row" >"$scratch/out" 2>&1
expect_eq "files read back and not: refused, and no row" "$? $(test -e "$scratch/read.row" && echo written)" "1 "
expect_match "and why" "$(cat "$scratch/out")" 'r1.csv ran with --read-back and .*r0.csv without'
expect_match "read back alone: the measured line says so" "$(from_benches read.row r1.csv r1.csv >/dev/null;
	grep '^measured' "$scratch/read.row")" 'r1.csv \(each cell the median of theirs\), each destination read back'
expect_eq "not read back: it says nothing of it" "$(from_benches plain.row r0.csv >/dev/null;
	grep -c 'read back' "$scratch/plain.row")" 0
# A bench file of one placement a class: the row says its ratios are that
# one placement's, not the worst of three; with every placement, it keeps
# each placement's ratio.
bench_csv 1.01 1.0 >"$scratch/bench.csv"
rm -f "$scratch/from-bench.row"
"$T_MEMSHIM_TOOL" cpu-row --from-bench "$scratch/bench.csv" --cpu 'AuthenticAMD 25 1 erms,fsrm,avx2' \
	-o "$scratch/from-bench.row" >/dev/null 2>&1
expect_match "one placement a class: the reason says so" "$(grep '^choice memcpy' "$scratch/from-bench.row")" \
	' \(ratio to glibc in the one placement measured\)$'
expect_match "one placement a class: the measured line says so" "$(grep '^measured' "$scratch/from-bench.row")" \
	'each class in one placement; row by memshim cpu-row --from-bench'
awk -F, 'NR == 1 { print; next } { print; $6 = "l2"; print; $6 = "cold"; if ($2 == "avx2" && $4 == "1-4 KiB") $11 = 0.5; print }' OFS=, \
	"$scratch/bench.csv" >"$scratch/every.csv"
rm -f "$scratch/every.row"
"$T_MEMSHIM_TOOL" cpu-row --from-bench "$scratch/every.csv" --cpu 'AuthenticAMD 25 1 erms,fsrm,avx2' \
	-o "$scratch/every.row" >/dev/null 2>&1
expect_match "every placement: the worst placement's ratio" "$(grep '^choice memcpy' "$scratch/every.row")" \
	" \(worst placement's ratio to glibc\)$"
expect_match "every placement: the measured line says so" "$(grep '^measured' "$scratch/every.row")" \
	'each class in l1, l2 and cold; row by memshim cpu-row --from-bench'
expect_eq "every placement: a ratio per placement (1-4 KiB, cold apart)" \
	"$(awk '$1 == "ratios" && $2 == "memcpy" && $3 == "avx2" { print $8 }' "$scratch/every.row")" "0.600/0.600/0.600/0.500"
bench_csv 1.01 1.10 >"$scratch/path.csv"
# --path-below-1k: up to 1 KiB a variant ties glibc where its path, traced
# here, is no longer than that of glibc's function here; under
# glibc.cpu.hwcaps=-AVX512F,-AVX512VL that is its AVX2 one, whose path
# tests/test_path.sh holds avx2's to, so avx2, losing at 0-16 B in the
# file, serves every size.  Against glibc's memcpy made shorter, it does not.
# memcpy's choice in ROW; avx2's ratios there at 0-16 B and in the class of
# field K (4 for 0-16 B up to 7 for 257 B-1 KiB)
memcpy_choice() { awk '$1 == "choice" && $2 == "memcpy" { print $3 }' "$scratch/$1"; }
avx2_ratios() { awk -v k="$2" '$1 == "ratios" && $2 == "memcpy" && $3 == "avx2" { print $4 " " $k }' "$scratch/$1"; }
path_row() { # ROW [ENV...]
	row=$1
	shift
	env GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX512VL "$@" "$T_MEMSHIM_TOOL" cpu-row \
		--from-bench "$scratch/path.csv" --cpu 'AuthenticAMD 25 1 erms,fsrm,avx2' --path-below-1k \
		-o "$scratch/$row" >"$scratch/out" 2>&1
}
if ! have_config HAVE_ZYDIS; then
	path_row nozydis.row
	expect_match "--path-below-1k without Zydis: says why" "$(cat "$scratch/out")" 'built without Zydis'
elif ! "$T_MEMSHIM_TOOL" info | grep -q '^  avx2  *usable'; then
	skip "--path-below-1k: this CPU cannot run avx2, the variant of the file"
else
	path_row path.row
	expect_eq "--path-below-1k: avx2 ties glibc to 1 KiB" "$(avx2_ratios path.row 7)" \
		"1.000/1.000/1.000/1.000 1.000/1.000/1.000/1.000"
	expect_eq "--path-below-1k: and serves every size alone" "$(memcpy_choice path.row)" "avx2"
	expect_match "--path-below-1k: the row names glibc's functions" "$(grep '^measured' "$scratch/path.row")" \
		'up to 1 KiB a variant counted as tying glibc where its path is no longer than that of, and takes no branch fewer than, __memcpy_(avx|sse2)_unaligned.*cpu-row --path-below-1k'
	expect_eq "--path-below-1k: the stub keeps its measured cost" \
		"$(awk '$1 == "ratios" && $2 == "memcpy" && $3 == "stub" { print $4 }' "$scratch/path.row")" "1.010/1.010/1.010/1.010"
	# A path no longer than glibc's, timed 1.5x slower: the loss is kept
	# (a layout can cost that with the same instructions), so avx2 no
	# longer serves every size: glibc's own below 1 KiB, behind the stub.
	bench_csv 1.01 1.50 >"$scratch/path.csv"
	path_row slow.row
	expect_eq "--path-below-1k: a same-length path timed 1.5x slower keeps its ratio" "$(avx2_ratios slow.row 5)" \
		"1.500/1.500/1.500/1.500 1.000/1.000/1.000/1.000"
	expect_eq "--path-below-1k: and does not serve every size" "$(memcpy_choice slow.row)" "glibc:1K,avx2"
fi
# A path that takes a branch fewer than glibc's is not a tie: avx512_mask's
# masked copy below 16 B (one taken branch where glibc's AVX-512 and EVEX
# functions take two) keeps its measured ratio there, where avx2's path, the
# same branches as glibc's, ties.  Both then serve every size alone, within
# 5% of each other over all classes; the one better to 1 KiB is chosen.
if have_config HAVE_ZYDIS && "$T_MEMSHIM_TOOL" info | grep -q '^  avx512_mask  *usable'; then
	bench_csv 1.01 0.70 | awk -F, '{ print } $2 == "avx2" { sub(/,avx2,/, ",avx512_mask,"); print }' >"$scratch/fewer.csv"
	rm -f "$scratch/fewer.row"
	"$T_MEMSHIM_TOOL" cpu-row --from-bench "$scratch/fewer.csv" --cpu 'AuthenticAMD 25 17 erms,fsrm,avx2,avx512' \
		--path-below-1k -o "$scratch/fewer.row" >"$scratch/out" 2>&1
	expect_eq "--path-below-1k: a branch fewer keeps the measured ratio, the same branches tie" \
		"$(awk '$1 == "ratios" && $2 == "memcpy" && ($3 == "avx2" || $3 == "avx512_mask") { print $3, $4 }' "$scratch/fewer.row")" \
		"avx2 1.000/1.000/1.000/1.000
avx512_mask 0.700/0.700/0.700/0.700"
	expect_eq "--path-below-1k: of two that serve alone, the one better to 1 KiB" "$(memcpy_choice fewer.row)" "avx512_mask"
else
	skip "--path-below-1k with a branch fewer: this CPU cannot run avx512_mask (AVX-512), or no Zydis"
fi
"$T_MEMSHIM_TOOL" cpu-row --calibrate --path-below-1k -o "$scratch/no.row" >"$scratch/out" 2>&1
expect_eq "--path-below-1k without --from-bench is a usage error" "$? $(test -e "$scratch/no.row" && echo written)" "2 "
finish
