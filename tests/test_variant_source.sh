#!/bin/sh
# memshim info's "sources:" line: where each function's variant came from,
# as the library's variant_resolve found it: a variable (named), the
# calibration file (MEMSHIM_CALIBRATION, a scratch file), or the default's
# own source (the CPU row, else built-in).  Checks text only.
. "${top_srcdir:-.}/tests/lib.sh"
tool=$T_MEMSHIM_TOOL
cpu=$("$tool" info | sed -n 's/^CPU: \([^,]*\), family \([0-9]*\) .*, model \([0-9]*\) .*/\1 \2 \3/p')
sources() { env "$@" "$tool" info 2>"$scratch/err" | grep '^  sources: '; }
none=$scratch/no-such-calibration

# By default: the shipped row where this CPU class has one, else built-in.
row=$("$tool" info | sed -n 's/^Shipped CPU row: \([^,]*\), measured on .*/\1/p')
if [ -n "$row" ]; then by_default="CPU row $row"; else by_default="built-in"; fi
expect_eq "by default: the default's source for every function" "$(sources MEMSHIM_CALIBRATION="$none")" \
	"  sources: memcpy $by_default, memmove $by_default, memset $by_default"

# A function's own variable, and MEMSHIM_IMPL for the others.
expect_eq "set by the environment: the variable is named" \
	"$(sources MEMSHIM_CALIBRATION="$none" MEMSHIM_MEMCPY=glibc MEMSHIM_IMPL=scalar)" \
	"  sources: memcpy environment (MEMSHIM_MEMCPY), memmove environment (MEMSHIM_IMPL), memset environment (MEMSHIM_IMPL)"
expect_eq "a preset named by the environment is the environment's" \
	"$(sources MEMSHIM_CALIBRATION="$none" MEMSHIM_MEMSET=kernel)" \
	"  sources: memcpy $by_default, memmove $by_default, memset environment (MEMSHIM_MEMSET)"
# A bad value is no source: the choice falls back, and so does its source.
expect_eq "a bad value leaves the default's source" "$(sources MEMSHIM_CALIBRATION="$none" MEMSHIM_MEMMOVE=nonsense)" \
	"  sources: memcpy $by_default, memmove $by_default, memset $by_default"

# A calibration file that chooses every function (format 2), and one that
# sets thresholds only (format 1): the default's own source then.
write_cal() { # VERSION
	printf 'memshim-calibration %s\ncpu %s\nauto_movsb 4096\nauto_stosb 8192\nnt 33554432\n' "$1" "$cpu"
	[ "$1" = 1 ] || printf 'choice memcpy scalar chosen by hand A\nchoice memmove movsq chosen by hand B\nchoice memset glibc chosen by hand C\n'
	printf 'unit ns\nclock by hand\nrounds 1\nend\n'
}
write_cal 2 >"$scratch/hand"
file="calibration file $scratch/hand"
expect_eq "set by the calibration file: the file is named" "$(sources MEMSHIM_CALIBRATION="$scratch/hand")" \
	"  sources: memcpy $file, memmove $file, memset $file"
expect_eq "the file read without a warning" "$(cat "$scratch/err")" ""
expect_eq "the environment before the file" \
	"$(sources MEMSHIM_CALIBRATION="$scratch/hand" MEMSHIM_MEMMOVE=scalar)" \
	"  sources: memcpy $file, memmove environment (MEMSHIM_MEMMOVE), memset $file"
write_cal 1 >"$scratch/thresholds-only"
expect_eq "a file of thresholds only is no variant's source" \
	"$(sources MEMSHIM_CALIBRATION="$scratch/thresholds-only")" \
	"  sources: memcpy $by_default, memmove $by_default, memset $by_default"
finish
