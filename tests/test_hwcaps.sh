#!/bin/sh
# MEMSHIM_HWCAPS in preloaded programs, memshim info and memshim run: under
# a mask the resolver binds what the presets give this CPU described
# without those features (tests/test_hwcaps, which clears them as
# tests/test_bands.c describes CPUs); a hidden feature's variants are
# refused by MEMSHIM_IMPL with the usual message; a bad list is one line
# that names the valid features, and hides nothing.  Last, the masked pass
# of run-tests.sh catches a test that assumes its CPU: a copy of
# test_header.sh counting `usable|unusable` lines, as it did, where
# memshim info prints `NOT usable`.
. "${top_srcdir:-.}/tests/lib.sh"
now=$top_builddir/tests/show_binding_now
described=$top_builddir/tests/test_hwcaps
tool=$T_MEMSHIM_TOOL
unset MEMSHIM_IMPL MEMSHIM_MEMCPY MEMSHIM_MEMMOVE MEMSHIM_MEMSET MEMSHIM_VERBOSE

# expect_bindings WHAT BANDS: memcpy, memmove and memset of the last run
# bound to the three bands of BANDS ("memcpy memmove memset").
expect_bindings() {
	# shellcheck disable=SC2086
	set -- "$1" $2
	expect_eq "$1: memcpy" "$(bound memcpy)" "$(binding_of memcpy "$2")"
	expect_eq "$1: memmove" "$(bound memmove)" "$(binding_of memmove "$3")"
	expect_eq "$1: memset" "$(bound memset)" "$(binding_of memset "$4")"
}

# ---- the resolver under a mask: as on the CPU described without it ----
for case in "-avx512f:avx512" "-avx512:avx512" "-avx2:avx2" "-erms:erms" "-fsrm:fsrm" \
	"-avx512f,-fsrm,-erms:avx512 fsrm erms" "-AVX512F,-ERMS:avx512 erms"; do
	mask=${case%%:*} without=${case#*:}
	for preset in default kernel; do
		# shellcheck disable=SC2086
		expected=$("$described" $preset $without)
		impl=MEMSHIM_IMPL=$preset
		[ $preset = default ] && impl=MEMSHIM_VERBOSE=0
		preloaded env MEMSHIM_HWCAPS="$mask" "$impl" "$now"
		expect_bindings "MEMSHIM_HWCAPS=$mask, $preset (the CPU without $without: $expected)" "$expected"
		expect_eq "MEMSHIM_HWCAPS=$mask, $preset: nothing on stderr" "$err" ""
	done
done

# ---- MEMSHIM_IMPL naming a hidden feature's variant ----
# usable_unmasked VARIANT: whether this CPU, nothing hidden, runs it.
usable_unmasked() {
	env -u MEMSHIM_HWCAPS "$tool" info | awk -v v="$1" '/^Variants/ { on = 1; next } /^[^ ]/ { on = 0 }
		on && $1 == v { usable = $2 == "usable" } END { exit !usable }'
}
for case in "-avx512f:avx512:avx512 evex avx512_erms avx512_mask avx512_mask_erms avx512_mask64_erms evex_mask_erms" "-avx2:avx2:avx2 avx2_xmm avx2_erms avx512 evex" \
	"-erms:erms:sse2_erms avx2_erms avx2_xmm_erms" "-bmi2:bmi2:avx512 avx512_mask evex_mask_erms avx512_mask64_erms"; do
	mask=${case%%:*} rest=${case#*:}
	without=${rest%%:*} variants=${rest#*:}
	default=$("$described" default "$without")
	# shellcheck disable=SC2086
	set -- $default
	usual="the default (memcpy $1, memmove $2, memset $3)"
	for v in $variants; do
		preloaded env MEMSHIM_HWCAPS="$mask" MEMSHIM_IMPL="$v" "$now"
		expect_eq "MEMSHIM_HWCAPS=$mask MEMSHIM_IMPL=$v: refused, as on a CPU without it" "$err" \
			"memshim: MEMSHIM_IMPL=\"$v\" is not supported by this CPU or C library; using $usual"
		expect_bindings "MEMSHIM_HWCAPS=$mask MEMSHIM_IMPL=$v: the default" "$default"
		if usable_unmasked "$v"; then
			preloaded env -u MEMSHIM_HWCAPS MEMSHIM_IMPL="$v" "$now"
			expect_eq "without the mask, MEMSHIM_IMPL=$v is taken" "$err:$(bound memcpy)" ":memshim_memcpy_$v"
		else
			skip "MEMSHIM_IMPL=$v taken without the mask: this CPU cannot run $v"
		fi
	done
done
# Bands too: one naming a hidden feature's variant is refused as a whole.
default=$("$described" default avx512)
preloaded env MEMSHIM_HWCAPS=-avx512f MEMSHIM_MEMCPY=sse2:256,evex "$now"
expect_eq "MEMSHIM_HWCAPS=-avx512f MEMSHIM_MEMCPY=sse2:256,evex: refused" "$err" \
	"memshim: MEMSHIM_MEMCPY=\"sse2:256,evex\" names a band variant this CPU or C library cannot run; using ${default%% *}"
expect_eq "MEMSHIM_HWCAPS=-avx512f MEMSHIM_MEMCPY=sse2:256,evex: memcpy gets the default" "$(bound memcpy)" \
	"$(binding_of memcpy "${default%% *}")"
if usable_unmasked avx2; then
	preloaded env MEMSHIM_HWCAPS=-avx512f,-erms MEMSHIM_IMPL=avx2 "$now"
	expect_eq "MEMSHIM_HWCAPS=-avx512f,-erms keeps avx2" "$err:$(bound memcpy)" ":memshim_memcpy_avx2"
else
	skip "a mask keeps what it does not hide (avx2): this CPU cannot run avx2"
fi

# A calibration file made here, naming a hidden feature's variant: refused, and the line says why.
cpu=$(env -u MEMSHIM_HWCAPS "$tool" info | sed -n 's/^CPU: \([^,]*\), family \([0-9]*\) .*, model \([0-9]*\) .*/\1 \2 \3/p')
printf 'memshim-calibration 2\ncpu %s\nauto_movsb 4096\nauto_stosb 8192\nnt 33554432\n%s\n%s\n%s\n%s\n' "$cpu" \
	'choice memcpy avx2 by hand' 'choice memmove sse2 by hand' 'choice memset sse2 by hand' \
	'unit ns
clock by hand
rounds 1
end' >"$scratch/calibration"
if usable_unmasked avx2; then
	preloaded env MEMSHIM_CALIBRATION="$scratch/calibration" MEMSHIM_HWCAPS= "$now"
	expect_eq "a calibration file choosing avx2: taken without a mask" "$err:$(bound memcpy)" ":memshim_memcpy_avx2"
	preloaded env MEMSHIM_CALIBRATION="$scratch/calibration" MEMSHIM_HWCAPS=-avx2 "$now"
	expect_eq "MEMSHIM_HWCAPS=-avx2: the file choosing avx2 is refused, and why" "$err" \
		"memshim: calibration file \"$scratch/calibration\" names bands of a variant that MEMSHIM_HWCAPS hides; using the built-in thresholds"
	expect_bindings "MEMSHIM_HWCAPS=-avx2, that file: the default without AVX2" "$("$described" default avx2)"
else
	skip "a calibration file naming a variant that MEMSHIM_HWCAPS hides: this CPU cannot run avx2"
fi

# ---- bad lists: one line naming the valid features; nothing hidden ----
valid='(NAME: erms, fsrm, fzrm, fsrs, fsrc, avx2, avx512f, avx512, avx512bw, avx512vl, bmi2; the mask can only hide)'
preloaded env -u MEMSHIM_HWCAPS "$now"
unmasked=$out
for value in avx2 +fsrm -sse2 "-avx2,," "-avx2 -erms" -; do
	preloaded env MEMSHIM_HWCAPS="$value" "$now"
	case $value in *,,) item='an empty item' ;; *) item="\"$value\"" ;; esac
	expect_eq "MEMSHIM_HWCAPS=\"$value\": one line naming the valid features" "$err" \
		"memshim: MEMSHIM_HWCAPS=\"$value\" is not a list of features to hide: $item is not -NAME $valid; using every feature the CPU has"
	expect_eq "MEMSHIM_HWCAPS=\"$value\": bindings as without it" "$out" "$unmasked"
done
preloaded env MEMSHIM_HWCAPS= "$now"
expect_eq "an empty MEMSHIM_HWCAPS hides nothing, silently" "$err:$out" ":$unmasked"

# ---- memshim info ----
yes_features=$(env -u MEMSHIM_HWCAPS "$tool" info | sed -n '2,3p' | grep -o '[A-Z0-9-]* yes' | sed 's/ yes//')
info=$(MEMSHIM_HWCAPS=-avx512f,-fsrm,-erms "$tool" info 2>&1)
hidden="" shown=""
for f in ERMS FSRM FZRM FSRS FSRC F BW VL; do
	name=$(echo "$f" | sed 's/^F$/avx512f/; s/^BW$/avx512bw/; s/^VL$/avx512vl/' | tr '[:upper:]' '[:lower:]')
	if printf '%s\n' "$yes_features" | grep -qx "$f"; then
		hidden="$hidden $name" shown="$shown $f:hidden"
	else
		shown="$shown $f:no"
	fi
done
expect_eq "memshim info: each masked feature the CPU has shows as hidden" \
	"$(printf '%s\n' "$info" | sed -n '2,3p' | grep -o '\(ERMS\|FSRM\|FZRM\|FSRS\|FSRC\|F\|BW\|VL\) [a-z]*' |
		tr ' ' ':' | tr '\n' ' ' | sed 's/^/ /; s/ $//')" "$shown"
if [ -n "$hidden" ]; then
	expect_eq "memshim info: the line that names them" "$(printf '%s\n' "$info" | sed -n 4p)" \
		"  MEMSHIM_HWCAPS=-avx512f,-fsrm,-erms hides${hidden} from every choice below"
else
	expect_eq "memshim info: the line that says nothing is hidden" "$(printf '%s\n' "$info" | sed -n 4p)" \
		"  MEMSHIM_HWCAPS=-avx512f,-fsrm,-erms hides nothing this CPU has"
fi
expect_eq "memshim info: its default, as the CPU described without them" \
	"$(printf '%s\n' "$info" | awk '$1 == "default" && $2 == "memcpy" { sub(/,$/, "", $3); print $3 }')" \
	"$("$described" default avx512 fsrm erms | cut -d' ' -f1)"
expect_eq "memshim info: no AVX-512 variant usable" \
	"$(printf '%s\n' "$info" | awk '$1 ~ /^(avx512|evex)/ && $2 == "usable"')" ""

# ---- memshim run --hwcaps ----
"$tool" run --hwcaps=-avx2 --impl avx2 -- "$now" >"$scratch/out" 2>"$scratch/err"
out=$(cat "$scratch/out")
expect_match "memshim run --hwcaps=-avx2 --impl avx2: refused" "$(cat "$scratch/err")" \
	'^memshim: MEMSHIM_IMPL="avx2" is not supported by this CPU or C library; using the default'
expect_bindings "memshim run --hwcaps=-avx2: the default without AVX2" "$("$described" default avx2)"
"$tool" run --hwcaps=+avx2 -- "$now" >"$scratch/out" 2>"$scratch/err"
expect_eq "memshim run --hwcaps=+avx2: usage error, one line, nothing run" "$?:$(cat "$scratch/out"):$(cat "$scratch/err")" \
	"2::memshim run: --hwcaps \"+avx2\" is not a list of features to hide: \"+avx2\" is not -NAME $valid"

# ---- the masked pass catches a test that assumes its CPU ----
mask=$(sed -n 's/^[[:space:]]*--masked) mask=\([^ ;]*\) ;;$/\1/p' "$top_srcdir/run-tests.sh")
expect_eq "run-tests.sh --masked hides AVX-512, FSRM and ERMS" "$mask" -avx512f,-fsrm,-erms
sed 's/(usable|NOT usable) /(usable|unusable)/' "$top_srcdir/tests/test_header.sh" >"$scratch/planted.sh"
if cmp -s "$scratch/planted.sh" "$top_srcdir/tests/test_header.sh"; then
	fail "the assumption could not be planted: test_header.sh no longer counts (usable|NOT usable)"
else
	MEMSHIM_HWCAPS=$mask sh "$scratch/planted.sh" >"$scratch/planted.log" 2>&1
	expect_eq "masked, the planted copy fails on its count" "$?:$(grep -c '^FAIL: memshim info shows every variant' "$scratch/planted.log")" 1:1
	MEMSHIM_HWCAPS=$mask sh "$top_srcdir/tests/test_header.sh" >"$scratch/fixed.log" 2>&1
	expect_eq "masked, test_header.sh itself passes" "$?:$(grep -c '^FAIL' "$scratch/fixed.log")" 0:0
fi
finish
