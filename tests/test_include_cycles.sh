#!/bin/sh
# No circle of includes: among the modules (foo.c with foo.h) of every
# folder, and among the folders themselves, so that the layers stay
# shim (the copy routines) <- dispatch <- preload <- tools
# (tests/include_cycles.py builds the graph).
. "${top_srcdir:-.}/tests/lib.sh"
need_python "include circles"
# Every folder with C sources.
run_checker "includes" "$PYTHON" "$top_srcdir/tests/include_cycles.py" "$top_srcdir"
finish
