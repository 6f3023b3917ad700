#!/bin/sh
# The chain of BENCHMARKS.md section 7 for one program: histogram -> tune
# prediction -> in-process measurement under the suggested setting -> ab
# verdict.  Records COMMAND under glibc's own functions with the profiler,
# asks memshim tune for the best setting, records COMMAND again under that
# setting, and lets memshim ab compare the two, interleaved, with in-function
# time per call (--profile), until resolved or BUDGET seconds (default 120).
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
echo "-- 1. histogram and time under glibc's own functions (memshim record --profile --impl glibc)"
"$memshim" record -o "$work/glibc" --profile --impl glibc -- "$@" >"$work/glibc.txt" 2>&1
sed -n '/^time/,/^$/p' "$work/glibc.txt"
echo "-- 2. memshim tune"
"$memshim" tune "$work/glibc" >"$work/tune.txt" 2>&1
sed -n '/^Best setting/,$p' "$work/tune.txt"
setting=$(sed -n '/^Best setting/{n;p;}' "$work/tune.txt")
echo "-- 3. time measured under the suggested setting ($setting)"
# shellcheck disable=SC2086
env $setting "$memshim" record -o "$work/tuned" --profile -- "$@" >"$work/tuned.txt" 2>&1
sed -n '/^time/,/^$/p' "$work/tuned.txt"
echo "-- 4. memshim ab --profile --runs auto --budget $budget: glibc against the setting"
"$memshim" ab --profile --runs auto --budget "$budget" --impl glibc --env "$setting" -- "$@" 2>&1
