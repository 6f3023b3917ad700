#!/bin/sh
# The chain of doc/tuning.md for one program: histogram -> tune
# prediction -> in-process measurement under the suggested setting -> ab
# verdict.  Records COMMAND under glibc's own functions with the profiler
# and timed calls, asks memshim tune for the best setting (and its check of
# the model, size class by size class), records COMMAND again under that
# setting, and lets memshim ab compare the two, interleaved, with in-function
# time per call, until resolved or BUDGET seconds (default 120): from the
# timed calls (--timing), then from the profile (--profile).
# It reads the calibration file memshim tune --calibrate wrote; without
# one, it makes a quick one in its temporary folder (so that tune does not
# keep one in the user's cache), and says so.  It writes nothing else
# outside that folder, which it removes at the end.
# usage: bench/proof-chain.sh NAME [BUDGET] -- COMMAND ARGS...   (after make and tune --calibrate)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
memshim=$top/tools/memshim
name=$1
shift
budget=120
[ "$1" = "--" ] || { budget=$1; shift; }
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "== $name: $*"
echo "-- 1. histogram and time under glibc's own functions (memshim record --profile --timing --impl glibc)"
"$memshim" record -o "$work/glibc" --profile --timing --impl glibc -- "$@" >"$work/glibc.txt" 2>&1
sed -n '/^time/,/^$/p;/^[a-z]*: [0-9]* calls/p;/size class/,/by power/p' "$work/glibc.txt"
echo "-- 2. memshim tune"
calibration=${MEMSHIM_CALIBRATION:-${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/memshim/calibration}
if [ ! -f "$calibration" ]; then
	echo "(no calibration file at $calibration: a quick one, in a temporary folder)"
	calibration=$work/calibration
	"$memshim" tune --calibrate --quick --calibration "$calibration" >/dev/null 2>&1
fi
"$memshim" tune --calibration "$calibration" "$work/glibc" >"$work/tune.txt" 2>&1
sed -n '/^Best setting\|^No best setting/,$p' "$work/tune.txt"
# the best setting, or where tune makes none the model's pick it names for measuring
setting=$(sed -n '/^Best setting/{n;p;};/^The model.s pick, no suggestion/{n;s/^  //p;}' "$work/tune.txt")
echo "-- 3. time measured under the suggested setting ($setting)"
# shellcheck disable=SC2086
env $setting "$memshim" record -o "$work/tuned" --profile --timing -- "$@" >"$work/tuned.txt" 2>&1
sed -n '/^time/,/^$/p;/^[a-z]*: [0-9]* calls/p;/size class/,/by power/p' "$work/tuned.txt"
echo "-- 4. memshim ab --timing --runs auto --budget $budget: glibc against the setting"
"$memshim" ab --timing --runs auto --budget "$budget" --impl glibc --env "$setting" -- "$@" 2>&1
echo "-- 5. memshim ab --profile --runs auto --budget $budget: the same"
"$memshim" ab --profile --runs auto --budget "$budget" --impl glibc --env "$setting" -- "$@" 2>&1
