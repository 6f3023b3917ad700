#!/bin/sh
# The memshim program times the library's variants only: it links no copy
# of their code, nor a memshim_thresholds of its own that a tool could set
# where no variant reads it.  nm lists what each object defines; the
# library must define the same names, so that a pattern that matches
# nothing cannot pass.
. "${top_srcdir:-.}/tests/lib.sh"
if ! command -v nm >/dev/null; then
	skip "no nm"
	finish
fi
pattern=' [A-TV-Za-vx-z] (memshim_(memcpy|memmove|memset|mempcpy|entries)_[a-z0-9_]+|memshim_thresholds)$'
in_library=$(nm "$MEMSHIM_LIBRARY" | grep -cE "$pattern")
in_tool=$(nm "$T_MEMSHIM_TOOL" | grep -E "$pattern")
expect_match "the library defines the variants and the thresholds they read" "$in_library" '^[1-9][0-9]+$'
expect_eq "memshim defines no variant and no thresholds of its own" "$in_tool" ""
finish
