#!/bin/sh
# No circle of includes: among the modules (foo.c with foo.h) of every
# folder, and among the folders themselves, so that the layers stay
# shim (the copy routines) <- dispatch <- preload <- tools
# (tests/include_cycles.py builds the graph).
. "${top_srcdir:-.}/tests/lib.sh"
PYTHON=${PYTHON:-python3}
if ! command -v "$PYTHON" >/dev/null; then
	skip "include circles: no $PYTHON"
	finish
	exit
fi
folders=$(cd "$top_srcdir" && ls -d */ | tr -d / | while read -r d; do
	[ -n "$(find "$d" -name '*.[ch]' -print -quit)" ] && echo "$d"; done)
# preload/record.c and preload/profile.c still call each other (record_targets,
# profile_thread_start): that pair leaves the module check when it is broken.
modules=$(printf '%s\n' $folders | grep -vx preload | tr '\n' ' ')
skip "include circles among preload/'s modules: record <-> profile, not yet broken"
# shellcheck disable=SC2086
run_checker "modules" "$PYTHON" "$top_srcdir/tests/include_cycles.py" "$top_srcdir" $modules
# shellcheck disable=SC2086
run_checker "folders" "$PYTHON" "$top_srcdir/tests/include_cycles.py" "$top_srcdir" --folders-only $folders
finish
