#!/bin/sh
# Sets memshim up on a fresh Debian 12 machine and runs its main job on a
# real program: installs the build tools that are missing, builds, then
# records the copy sizes of `zstd -t` (decompression, the output checked and
# dropped) on a 64 MB file, and the CPU time the copies take, and reports
# them (text on the terminal, a plot beside the recording).  zstd tests its
# file 700 times over, 15 s of CPU or so: at the 250 samples a second a
# kernel's tick allows, that puts the time shares' 95% intervals within a
# point.  Before it records, it measures this machine (the quick
# calibration) into the recording's own calibration file, so that the
# recording runs the default this machine measured; the user's cache is not
# touched.  It writes the build here, the recording in a new folder here
# and its plot beside it (./memshim-record and ./memshim-record.svg, or .1,
# .2, ... beside earlier ones, as memshim record numbers its own: never over
# one; .gitignore names them), and the workload's files in a temporary
# folder it removes.
set -eu
cd "$(dirname "$0")"

# The first of ./memshim-record, ./memshim-record.1, ... not there yet (nor
# its plot or calibration): memshim record's own default directory.
recording=memshim-record
n=0
while [ -e "$recording" ] || [ -e "$recording.svg" ] || [ -e "$recording.calibration" ]; do
	n=$((n + 1))
	recording=memshim-record.$n
done

packages="build-essential autoconf automake libtool pkg-config libunwind-dev libdw-dev protobuf-c-compiler libprotobuf-c-dev zlib1g-dev libzydis-dev python3 zstd"
missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "== 1. the Debian packages building needs: all there"
else
	echo "== 1. the Debian packages building needs: installing$missing"
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi

echo
echo "== 2. building (here: ./configure, make)"
[ -x configure ] || autoreconf -fi >/dev/null 2>&1
[ -f Makefile ] || ./configure -q
make -s -j"$(nproc)" >/dev/null

echo
echo "== 3. this machine: its CPU, the variants, what each function resolves to (memshim info)"
./tools/memshim info

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo
echo "== 4. measuring this machine: the quick calibration (about 10 s), kept in"
echo "   ./$recording.calibration for this recording only (your preloaded programs keep theirs)"
calibration=$(pwd)/$recording.calibration
./tools/memshim tune --calibrate --quick --calibration "$calibration" | sed -n 's/^  \(mem[a-z]* *->\)/   \1/p'
export MEMSHIM_CALIBRATION="$calibration"

echo
echo "== 5. recording zstd -t of a 64 MB mix of the system's libraries and documents, 700"
echo "   times over, under the default just measured, and its report (the input in $work,"
echo "   removed at the end; the recording in ./$recording)"
find /usr/lib /usr/share -type f -size +16k 2>/dev/null | head -n 4000 | xargs cat 2>/dev/null |
	head -c 64000000 >"$work/input" || true
zstd -q -3 "$work/input" -o "$work/input.zst"
# shellcheck disable=SC2046
./tools/memshim record -o "$recording" --profile -- zstd -q -t $(for i in $(seq 700); do echo "$work/input.zst"; done)
./tools/memshim report --svg "$recording.svg" "$recording/merged" >/dev/null
echo
echo "== 6. kept: the recording in $(pwd)/$recording (its merged dump: every"
echo "   process in one file), its plot in $(pwd)/$recording.svg, and the"
echo "   calibration it ran under in $calibration"
echo
echo "== next"
echo "   ./tools/memshim record -- YOUR-COMMAND ARGS...     record your own program the same way"
echo "   ./tools/memshim tune $recording/merged"
echo "        predict the best setting for this recording, from the quick calibration it ran"
echo "        under (./$recording.calibration, found beside it: nothing is measured again;"
echo "        tune --calibrate measures a full one, 10-45 s, for tune alone)"
