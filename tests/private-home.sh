#!/bin/sh
# Runs one test (make check's LOG_COMPILER) with a HOME and an
# XDG_CACHE_HOME of its own, empty at the start and removed after it, so
# that no test reads or writes the files of whoever runs the suite (the
# calibration file in the cache changes every program's default).
# tests/home-check.sh then checks that the real ones were left alone.
# usage: tests/private-home.sh TEST [ARGS...]
home=$(mktemp -d "${TMPDIR:-/tmp}/memshim-home.XXXXXX") || exit 99
HOME=$home XDG_CACHE_HOME=$home/.cache "$@"
status=$?
rm -rf "$home"
exit $status
