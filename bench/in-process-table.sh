#!/bin/sh
# One program's line of the in-process A/B table (the in-process A/B issue):
# glibc against each SETTING in one run with memshim ab --in-process, and
# beside it the out-of-process verdict of memshim ab --timing --runs auto
# (BUDGET seconds, default 60), which must agree wherever it resolves.
# SETTINGS: a comma-separated list of variants or presets; `tune` in it
# stands for memshim tune's suggestion for the program, from a recording
# under glibc and the calibration file CALIBRATION (made with
# tune --calibrate --calibration CALIBRATION beforehand: this script never
# writes the user's).
# usage: bench/in-process-table.sh NAME SETTINGS CALIBRATION [BUDGET] -- COMMAND ARGS...
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
memshim=$top/tools/memshim
name=$1 settings=$2 calibration=$3
shift 3
budget=60
[ "$1" = "--" ] || { budget=$1; shift; }
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "== $name: $*"
suggested() {
	"$memshim" record -o "$work/rec" --impl glibc -- "$@" >/dev/null 2>&1
	"$memshim" tune --calibration "$calibration" "$work/rec/merged" >"$work/tune.txt" 2>&1
	# the variant tune suggests for memcpy: MEMSHIM_IMPL's or MEMSHIM_MEMCPY's, else glibc
	line=$(sed -n '/^Best setting/{n;p;}' "$work/tune.txt")
	v=$(printf '%s\n' "$line" | tr ' ' '\n' | sed -n 's/^MEMSHIM_\(IMPL\|MEMCPY\)=//p' | head -1)
	echo "-- tune suggests: ${line:-nothing} (compared: ${v:-glibc})" >&2
	echo "${v:-glibc}"
}
for s in $(echo "$settings" | tr ',' ' '); do
	[ "$s" = tune ] && s=$(suggested "$@")
	echo "-- in process: glibc against $s"
	"$memshim" ab --in-process --impl "glibc,$s" -- "$@" 2>&1 | sed -n '2,3p;/^  function/,$p'
	echo "-- out of process: memshim ab --timing --runs auto --budget $budget --impl glibc,$s"
	"$memshim" ab --timing --runs auto --budget "$budget" --impl "glibc,$s" -- "$@" 2>&1 |
		sed -n '/verdict\|faster\|slower\|resolve\|in-function\|per call/p'
done
