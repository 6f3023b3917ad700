#!/bin/sh
# Predictions against the program's own measurement: records CMD with
# `memshim record --timing --sequences`, asks `memshim tune` for its best
# setting, then, for that setting, avx2 and scalar, predicts each one's
# ratio to glibc in the three functions with `tune --impl` from the replay
# of the recorded windows and from the histogram alone (the model), and
# measures it with `memshim ab --timing --runs auto --budget BUDGET`, all
# settings and glibc interleaved in one ab run.  Prints a table: setting,
# the two predictions with their intervals, ab's measured in-function
# ratio with its 95% interval, and whether each prediction falls inside
# that interval or within 0.03 of its ratio.  The histogram's prediction
# needs a calibration file (CALIBRATION=FILE, else the default one); the
# replay's does not, and takes PLACEMENT=L1|L2|L3|cold (tune --placement;
# default: l2 to 32 KiB, cold beyond) and FENCED=1 (tune --fenced: each
# call alone between fences, as ab --timing's timed calls run).  Writes only in a temporary folder, removed at the
# end (KEEP=DIR keeps it there instead).  Run it under the shared lock.
# usage: bench/predict-vs-ab.sh [BUDGET] -- CMD ARGS...    (after make; BUDGET in seconds, default 120)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tool=${MEMSHIM_TOOL:-$top/tools/memshim}
budget=120
if [ "${1:-}" != -- ]; then budget=$1; shift; fi
[ "${1:-}" = -- ] || { echo "usage: $0 [BUDGET] -- CMD ARGS..." >&2; exit 2; }
shift
[ $# -gt 0 ] || { echo "usage: $0 [BUDGET] -- CMD ARGS..." >&2; exit 2; }
work=${KEEP:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work"
calibration=${CALIBRATION:+--calibration $CALIBRATION}
placement="${PLACEMENT:+--placement $PLACEMENT}${FENCED:+ --fenced}"

"$tool" record --timing --sequences -o "$work/rec" --report "$work/report.txt" -- "$@" >/dev/null
dump=$work/rec/merged
echo "recorded: $(grep -c '^window' "$dump") windows of calls in $dump"

# tune's suggestion: the best setting, or the model's pick where it names none.
# shellcheck disable=SC2086 # $calibration is words
"$tool" tune $calibration "$dump" >"$work/tune.txt"
best=$(sed -n '/^Best setting:$/{n;p}; /^The model.s pick, no suggestion/{n;s/^  //p}' "$work/tune.txt")
[ -n "$best" ] || { echo "$0: tune named no setting (see $work/tune.txt)" >&2; exit 1; }
echo "tune's suggestion: $best"

# predicted SETTING BASIS: "ratio (low .. high)" from tune --impl, or "-" and why.
predicted() {
	# shellcheck disable=SC2086
	where=
	[ "$2" = histogram ] || where=$placement
	if "$tool" tune --impl "$1" --basis "$2" $where $calibration "$dump" >"$work/impl.txt" 2>&1; then
		sed -n 's/^predicted ratio to glibc: \([0-9.]* ([0-9.]* \.\. [0-9.]*)\), from the .*/\1/p' "$work/impl.txt"
	else
		echo "- ($(tail -1 "$work/impl.txt"))"
	fi
}

"$tool" ab --timing --runs auto --budget "$budget" --impl glibc,avx2,scalar --env "$best" -- "$@" >"$work/ab.txt" 2>&1 || true
# measured LABEL: "ratio (low..high)" of ab's in-function verdict for that setting.
measured() {
	awk -v l="  $1:" 'index($0, l " in-function (timed) per call ") == 1 { print $6, $7; exit }' "$work/ab.txt" | tr -d ':'
}
rounds=$(sed -n 's/^memshim ab: \([0-9]*\) runs of each.*/\1/p' "$work/ab.txt" | tail -1)
echo "ab: ${rounds:-?} rounds within a budget of $budget s (in $work/ab.txt)"

# agrees PREDICTED MEASURED: yes where the prediction is inside the interval or within 0.03 of the ratio.
agrees() {
	awk -v p="$1" -v m="$2" 'BEGIN {
		if (p !~ /^[0-9]/ || m !~ /^[0-9]/) { print "-"; exit }
		gsub(/[()]/, "", m); split(m, a, / |\.\./); r = a[1] + 0; lo = a[2] + 0; hi = a[3] + 0
		x = p + 0; d = x - r; if (d < 0) d = -d
		print (x >= lo && x <= hi) || d <= 0.03 ? "yes" : "no" }'
}

printf '\n%-28s %-24s %-24s %-22s %s\n' "setting" "replay predicts" "histogram predicts" "ab measures" "inside: replay/histogram"
for setting in "$best" avx2 scalar; do
	label=$setting
	# ab names an --env setting by its text, or env1 where that is longer than its labels
	[ "$setting" = "$best" ] && { label=$best; [ ${#best} -le 20 ] || label=env1; }
	r=$(predicted "$setting" replay)
	h=$(predicted "$setting" histogram)
	m=$(measured "$label")
	name=$setting
	[ "$setting" = "$best" ] && name="tune's suggestion"
	printf '%-28s %-24s %-24s %-22s %s/%s\n' "$name" "$r" "$h" "${m:--}" "$(agrees "$r" "$m")" "$(agrees "$h" "$m")"
done
