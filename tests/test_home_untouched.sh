#!/bin/sh
# The suite's last test (Makefile.am makes its log wait for every other
# test's): the real HOME and XDG_CACHE_HOME are as they were before the
# first test (tests/home-check.sh, on the snapshot make check took then).
snapshot=${top_builddir:-.}/tests/home-before.snapshot
[ -f "$snapshot" ] || { echo "SKIP: no snapshot from before the tests: run through make check"; exit 77; }
sh "${top_srcdir:-.}/tests/home-check.sh" "$snapshot"
