#!/bin/sh
# Sets memshim up on a fresh Debian 12 machine and runs its main job on a
# real program: installs the build tools that are missing, builds, then
# records the copy sizes of `zstd -d` on a 64 MB file, and the CPU time the
# copies take, and reports them (text on the terminal, a plot beside the
# recording).  It writes the build here, the recording in a new folder here
# and its plot beside it (./memshim-recording and ./memshim-recording.svg,
# or -2, -3, ... beside earlier ones: never over one), and the workload's
# files in a temporary folder it removes.
set -eu
cd "$(dirname "$0")"

# The first of ./memshim-recording, ./memshim-recording-2, ... not there yet.
recording=memshim-recording
n=1
while [ -e "$recording" ] || [ -e "$recording.svg" ]; do
	n=$((n + 1))
	recording=memshim-recording-$n
done

packages="build-essential autoconf automake libtool pkg-config libunwind-dev libdw-dev protobuf-c-compiler libprotobuf-c-dev zlib1g-dev python3 zstd"
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
echo "== 4. recording zstd -d of a 64 MB mix of the system's libraries and documents, and its"
echo "   report (the input in $work, removed at the end; the recording in ./$recording)"
find /usr/lib /usr/share -type f -size +16k 2>/dev/null | head -n 4000 | xargs cat 2>/dev/null |
	head -c 64000000 >"$work/input" || true
zstd -q -3 "$work/input" -o "$work/input.zst"
./tools/memshim record -o "$recording" --profile -- zstd -q -d -f "$work/input.zst" -o "$work/output"
cmp "$work/input" "$work/output"
./tools/memshim report --svg "$recording.svg" "$recording/merged" >/dev/null
echo
echo "== 5. kept: the recording in $(pwd)/$recording (its merged dump: every"
echo "   process in one file), and its plot in $(pwd)/$recording.svg"
echo
echo "== next"
echo "   ./tools/memshim record -- YOUR-COMMAND ARGS...     record your own program the same way"
echo "   ./tools/memshim tune --calibrate $recording/merged"
echo "        measure this machine's variants (30 s), keep that as its calibration (programs"
echo "        preloaded with the library then follow it), and predict the best setting for"
echo "        this recording"
