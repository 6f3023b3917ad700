#!/bin/sh
# A dump on a full disk: a 64 KiB tmpfs, filled.  The program must run to
# its normal end with one line on stderr naming MEMSHIM_DUMP, and no dump
# file (complete or not) may be left there; with a dump already written
# before the disk filled, that complete dump must stay.
# Needs mount(2): SKIP (77) when not root or mounting is not permitted.
. "${top_srcdir:-.}/tests/lib.sh"
program=$top_builddir/tests/hist_program
full=$scratch/full
mkdir "$full"
if ! mount -t tmpfs -o size=64k memshim-test "$full" 2>"$scratch/mount.err"; then
	echo "SKIP: cannot mount a tmpfs here: $(cat "$scratch/mount.err")"
	exit 77
fi
trap 'umount "$full"; rm -rf "$scratch"' EXIT
files() { (cd "$full" && ls -A | grep -v '^fill' | sort | tr '\n' ' '); }

# First a dump that fits, to be kept when the disk is full later.
run MEMSHIM_DUMP="$full/kept" MEMSHIM_DUMP_SIGNAL=USR1 "$program" sigdump 20
expect_eq "a dump before the disk is full" "$rc:$err:$(files)" "0::kept "
"$T_MEMSHIM_TOOL" report "$full/kept" >/dev/null 2>&1
expect_eq "... is complete" "$?" 0

# Fill it: the last file ends with ENOSPC.
i=0
while dd if=/dev/zero of="$full/fill$i" bs=4096 count=64 2>/dev/null; do i=$((i + 1)); done
dd if=/dev/zero of="$full/fill_tail" bs=64 count=1000 2>/dev/null
if dd if=/dev/zero of="$full/fill_probe" bs=1 count=1 2>/dev/null; then
	fail "the tmpfs is not full"
fi

for mode in calls interval; do
	extra=
	[ $mode = interval ] && extra=MEMSHIM_DUMP_INTERVAL=1
	# shellcheck disable=SC2086
	run MEMSHIM_DUMP="$full/h" $extra "$program" calls 200
	expect_eq "full disk ($mode): the program ends normally" "$rc:$(printf '%s' "$out" | head -c 4)" "0:pid "
	expect_eq "full disk ($mode): one line on stderr [$err]" "$(printf '%s\n' "$err" | wc -l)" 1
	expect_match "full disk ($mode): the line names MEMSHIM_DUMP and the problem" "$err" \
		'^memshim: MEMSHIM_DUMP: cannot write ".*/h": no space left on device; '
	expect_eq "full disk ($mode): no dump file left behind" "$(files)" "kept "
done

# A later dump that cannot be written keeps the earlier complete one.
run MEMSHIM_DUMP="$full/kept" "$program" calls 5
expect_eq "full disk: a process whose file name is taken writes nothing" "$(files)" "kept "
"$T_MEMSHIM_TOOL" report "$full/kept" >/dev/null 2>&1
expect_eq "full disk: the earlier dump is still complete" "$?" 0

finish
