#!/bin/sh
# Dumps from every way out, and only when there is something in them:
#   a dash script (dash leaves through _exit) and _Exit leave their dumps;
#   a vfork child's _exit writes none and leaves the parent's intact;
#   a dump directory that is missing or not a directory is said once, at
#     start-up (before the program's own output, while stderr is open: cat
#     closes it before it exits), in words;
#   no dump file without a call in it.
. "${top_srcdir:-.}/tests/lib.sh"
. "${top_srcdir:-.}/tests/hist_lib.sh"
LC_ALL=C
export LC_ALL
files() { (cd "$dir" && ls -A | sort | tr '\n' ' '); }

# ---- _exit ----
preloaded env MEMSHIM_DUMP="$dir/h.%e.%p" dash -c 'a=$(echo x); b="$a$a$a"; echo "$b"'
expect_eq "dash: ran" "$rc:$out" "0:xxx"
expect_match "dash: the shell and its subshell left dumps" "$(files)" '^h\.dash\.[0-9]+ h\.dash\.[0-9]+ $'
for f in "$dir"/*; do
	[ -e "$f" ] || continue
	expect_match "dash: $(basename "$f") was written on the way out" "$(cat "$f")" '^reason exit$'
done

rm -f "$dir"/*
preloaded env MEMSHIM_DUMP="$dir/h" "$program" vfork-exit 100
child=$(awk '$1 == "child" { print $2 }' "$scratch/out")
expect_match "vfork then _exit: ran" "$rc:$child" '^0:[0-9]+$'
expect_eq "vfork then _exit: only the parent's file" "$(files)" "h "
expect_counts "vfork then _exit: the parent's file has all its calls" 200 0 "$dir/h"

rm -f "$dir"/*
preloaded env MEMSHIM_DUMP="$dir/h" "$program" _Exit 70
expect_counts "_Exit: dumped, every call" 70 0 "$dir/h"
expect_match "_Exit: reason exit" "$(cat "$dir/h")" '^reason exit$'

# ---- an unusable dump directory ----
echo "contents" >"$scratch/file"
preloaded env MEMSHIM_DUMP=/nonexistent/x.%p cat "$scratch/file"
expect_eq "missing directory: cat runs" "$rc:$out" "0:contents"
expect_eq "missing directory: one line, in words (and none at exit)" "$err" \
	'memshim: MEMSHIM_DUMP="/nonexistent/x.%p": cannot write dumps there: no such directory'
preloaded env MEMSHIM_DUMP="$scratch/file/x" sh -c 'echo own line >&2; exit 0'
expect_eq "not a directory: said first, then the program's own line" "$err" \
	"memshim: MEMSHIM_DUMP=\"$scratch/file/x\": cannot write dumps there: not a directory
own line"
rm -f "$dir"/*

# ---- no empty dumps ----
rm -f "$dir"/*
preloaded env MEMSHIM_DUMP="$dir/h.%e.%p" sh -c 'exec "$0" calls 0' "$program"
expect_eq "a process without calls, exec'd from one: status" "$rc" 0
for f in "$dir"/*; do
	[ -e "$f" ] || continue
	if grep -q '^entry ' "$f"; then pass "$(basename "$f") has calls"; else fail "$(basename "$f") has none"; fi
done
expect_eq "no dump from the program that made no call" "$(ls "$dir" | grep -c hist_program)" 0
finish
