#!/bin/sh
# Sets memshim up on a fresh Debian 12 machine and runs its main job on a
# real program: installs the build tools that are missing, builds, then
# records the copy sizes of `zstd -d` on a 64 MB file, and the CPU time the
# copies take, and reports them (text on the terminal, a plot in
# memshim-report.svg).
set -eu
cd "$(dirname "$0")"

packages="build-essential autoconf automake libtool pkg-config libunwind-dev libdw-dev protobuf-c-compiler libprotobuf-c-dev zlib1g-dev python3 zstd"
missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "== installing:$missing"
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi

echo "== building"
[ -x configure ] || autoreconf -fi >/dev/null 2>&1
[ -f Makefile ] || ./configure -q
make -s -j"$(nproc)" >/dev/null

./tools/memshim info

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "== recording zstd -d of a 64 MB mix of the system's libraries and documents"
find /usr/lib /usr/share -type f -size +16k 2>/dev/null | head -n 4000 | xargs cat 2>/dev/null |
	head -c 64000000 >"$work/input" || true
zstd -q -3 "$work/input" -o "$work/input.zst"
./tools/memshim record -o "$work/recording" --profile -- zstd -q -d -f "$work/input.zst" -o "$work/output"
cmp "$work/input" "$work/output"
./tools/memshim report --svg memshim-report.svg "$work/recording" >/dev/null
echo "== plot written to $(pwd)/memshim-report.svg"
