#!/bin/sh
# The end of make check: fails if the suite created or changed anything in
# the real HOME or XDG_CACHE_HOME (tests/home-snapshot.sh says what is
# looked at) since tests/home-before.snapshot was taken, before the first
# test.  It first shows on a folder of its own that a planted write is
# caught, so that a pass means the comparison can fail.
# usage: tests/home-check.sh SNAPSHOT_BEFORE
set -u
here=$(dirname "$0")
before=$1
if [ ! -f "$before" ]; then
	echo "SKIP: no snapshot from before the tests ($before): run through make check"
	exit 0
fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/memshim-home-check.XXXXXX") || exit 1
trap 'rm -rf "$scratch"' EXIT
status=0

# The comparison, on a planted write in a home of its own.
mkdir -p "$scratch/home/.cache"
sh "$here/home-snapshot.sh" "$scratch/home" "" >"$scratch/planted.before"
mkdir "$scratch/home/.cache/memshim"
echo planted >"$scratch/home/.cache/memshim/calibration"
sh "$here/home-snapshot.sh" "$scratch/home" "" >"$scratch/planted.after"
if cmp -s "$scratch/planted.before" "$scratch/planted.after"; then
	echo "FAIL: the check does not notice a file planted in a cache's memshim/ folder"
	status=1
else
	echo "ok: the check notices a file planted in a cache's memshim/ folder"
fi

# The real ones, as make check found them.
home=$(sed -n 's/^home //p' "$before")
cache=$(sed -n 's/^xdg_cache_home //p' "$before")
sh "$here/home-snapshot.sh" "$home" "$cache" >"$scratch/after"
if diff "$before" "$scratch/after" >"$scratch/diff"; then
	echo "ok: the tests left HOME (${home:-unset}) and XDG_CACHE_HOME (${cache:-unset}) as they found them"
else
	echo "FAIL: the tests created or changed files of the user's (< before, > after):"
	grep '^[<>]' "$scratch/diff"
	status=1
fi
exit $status
