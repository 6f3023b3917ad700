#!/bin/sh
# memshim report --pprof read back by an independent decoder: Python's
# protobuf, with pprof's profile.proto compiled by protoc
# (tests/pprof_check.py).  The sample types, the totals against report
# --json (by function, by program, by size class), the labels, the call
# sites' stacks, every location named, build ids and the time, for a program
# with call sites, one with CPU time, and a recording of several programs;
# --program; an output that cannot be written.  SKIP (77) without protoc or
# Python's protobuf (Debian: protobuf-compiler, python3-protobuf).
. "${top_srcdir:-.}/tests/lib.sh"
LC_ALL=C
export LC_ALL
tool=$T_MEMSHIM_TOOL
top_builddir=$(cd "$top_builddir" && pwd)
top_srcdir=$(cd "$top_srcdir" && pwd)
program=$top_builddir/tests/hist_program
cd "$scratch" || exit 1

if ! have_config HAVE_PPROF; then
	"$tool" report --pprof x.pb.gz /dev/null >/dev/null 2>err
	expect_match "without protobuf-c, --pprof is a usage error that says why" "$?:$(cat err)" \
		'^2:.*built without protobuf-c and zlib'
	finish
	exit
fi
python=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import google.protobuf' 2>/dev/null; then
		python=$p
		break
	fi
done
if [ -z "$python" ] || ! command -v protoc >/dev/null; then
	echo "SKIP: the decoder needs protoc and Python's protobuf (Debian: protobuf-compiler, python3-protobuf)"
	exit 77
fi
mkdir pb2 && protoc --proto_path="$top_srcdir/tools/report/pprof" --python_out=pb2 "$top_srcdir/tools/report/pprof/profile.proto" ||
	exit 1

# decode WHAT PROFILE REPORT.json [ARGS]: the checker's lines, each a pass or a fail.
decode() {
	what=$1
	shift
	run_checker "$what" "$python" "$top_srcdir/tests/pprof_check.py" pb2 "$@"
}
build_id() { readelf -n "$1" | awk '/Build ID/ { print $3 }'; }
written() { stat -c %Y "$@" | sort -n | sed -n '1p;$p' | tr '\n' ' '; }

# A program with sampled call sites (every call) and a profile.
callsites=
if have_config HAVE_LIBUNWIND && have_config HAVE_LIBDW; then
	callsites=1
fi
preloaded env ${callsites:+MEMSHIM_CALLSITES=1} MEMSHIM_DUMP="$scratch/cs" MEMSHIM_PROFILE=on "$program" calls 3000
"$tool" report --pprof cs.pb.gz cs >out 2>err
expect_eq "report --pprof runs, says nothing on stderr" "$?:$(cat err)" "0:"
expect_match "... and still prints the report" "$(cat out)" '^hist_program, 1 process'
expect_eq "the file is gzip-compressed" "$(gzip -t cs.pb.gz && echo ok)" ok
"$tool" report --json cs >cs.json
[ -n "$callsites" ] && expect_match "the dump has call sites" "$(grep -c '^  {"function": ' cs.json)" '^[1-9]'
# shellcheck disable=SC2046
decode "call sites" cs.pb.gz cs.json --build-id "$program=$(build_id "$program")" --written $(written cs)

# One call in 7 sampled: the totals are shared among the stacks in whole units
# that still add up.
if [ -n "$callsites" ]; then
	preloaded env MEMSHIM_CALLSITES=7 MEMSHIM_DUMP="$scratch/cs7" "$program" calls 1000
	"$tool" report --pprof cs7.pb.gz cs7 >/dev/null
	"$tool" report --json cs7 >cs7.json
	decode "one call in 7" cs7.pb.gz cs7.json
fi

# CPU time in copies.
preloaded env MEMSHIM_DUMP="$scratch/cpu" MEMSHIM_PROFILE=on "$top_builddir/tests/profile_program" mix 0.4
"$tool" report --pprof cpu.pb.gz cpu >/dev/null
"$tool" report --json cpu >cpu.json
expect_match "the profile has CPU time in memcpy" "$(cat cpu.json)" '"memcpy": \{[^}]*"cpu_ns": [1-9]'
# shellcheck disable=SC2046
decode "cpu" cpu.pb.gz cpu.json --written $(written cpu)

# A recording of several programs: merged, and the per-process dumps.
"$tool" record -o rec --keep -- sh -c "'$program' calls 10; '$program' calls 5; ls >/dev/null" >/dev/null 2>&1
"$tool" report --pprof rec.pb.gz rec/merged >/dev/null
"$tool" report --json rec/merged >rec.json
decode "merged recording" rec.pb.gz rec.json
"$tool" report --pprof procs.pb.gz rec/processes >/dev/null
# shellcheck disable=SC2046
decode "per-process dumps" procs.pb.gz rec.json --written $(written rec/processes/*)
"$tool" report --pprof ls.pb.gz --program ls rec/merged >/dev/null
"$tool" report --json --program ls rec/merged >ls.json
decode "--program ls" ls.pb.gz ls.json

"$tool" report --pprof /nonexistent/x.pb.gz cs >out 2>err
expect_match "an output that cannot be written is named, status 1" "$?:$(cat err)" \
	'^1:memshim report: cannot write /nonexistent/x\.pb\.gz: No such file or directory$'
"$tool" report --pprof >/dev/null 2>err
expect_match "--pprof without a file is a usage error" "$?:$(cat err)" '^2:'
finish
