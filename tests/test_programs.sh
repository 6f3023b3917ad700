#!/bin/sh
# Real programs, not written for this project, under every usable variant:
# their output files, stdout, stderr and exit statuses must be byte-identical
# to a run without the library.  Each step records "NAME rc=N out=CKSUM
# err=CKSUM"; the record of a whole program under a variant must equal the
# record without the library.  Steps that are meant to fail (corrupt input,
# bad SQL, not a repository) check that exit statuses are kept too.
#
#   make check       a few MB of input, about 30 s
#   make check-long  T_MEMSHIM_LONG=1: hundreds of MB, and more programs
#
# A program that is not installed is reported as skipped, not passed
# (Debian packages: tests/packages.txt).  T_MEMSHIM_VARIANTS="a b" limits
# the variants.
. "${top_srcdir:-.}/tests/lib.sh"
LC_ALL=C
export LC_ALL
unset MEMSHIM_IMPL MEMSHIM_MEMCPY MEMSHIM_MEMMOVE MEMSHIM_MEMSET \
	MEMSHIM_MOVSB_THRESHOLD MEMSHIM_STOSB_THRESHOLD MEMSHIM_VERBOSE
# A known library bug, reported here and in the summary, not counted as a
# failure (set T_MEMSHIM_STRICT=1 to count it).
known=0
xfail() {
	if [ "${T_MEMSHIM_STRICT:-0}" = 1 ]; then fail "$*"; else known=$((known + 1)); echo "XFAIL: $*"; fi
}

long=${T_MEMSHIM_LONG:-0}
if [ "$long" = 1 ]; then
	mix_bytes=$((256 << 20)) text_lines=2000000 sql_rows=200000 git_files=400
else
	mix_bytes=$((3 << 20)) text_lines=40000 sql_rows=3000 git_files=40
fi

variants=${T_MEMSHIM_VARIANTS:-$("$T_MEMSHIM_TOOL" info |
	awk '/^Variants:/ { on = 1; next } on && /^[^ ]/ { on = 0 } on && $2 == "usable" { print $1 }')}
expect_match "memshim info lists usable variants" "$(echo $variants)" '^[a-z]'

# ---- inputs, made once ----
inputs=$scratch/inputs
mkdir "$inputs"
# Text: licences and package documentation; binary: shared libraries.  Then
# whatever is short is made up by repeating it, each copy numbered.
{
	cat /usr/share/common-licenses/* 2>/dev/null
	find /usr/share/doc -maxdepth 2 -name copyright -type f 2>/dev/null | sort | head -200 | xargs cat 2>/dev/null
	find /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu -maxdepth 1 -name 'lib*.so*' -type f 2>/dev/null |
		sort | head -40 | xargs cat 2>/dev/null
} | head -c $((8 << 20)) >"$inputs/base"
awk -v n="$text_lines" 'BEGIN {
	srand(7)
	split("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu", w, " ")
	for (i = 0; i < n; i++)
		printf "%s %d %s-%x %.3f\n", w[int(rand() * 12) + 1], int(rand() * 1000000), w[int(rand() * 12) + 1], i * 2654435761 % 4294967296, rand() * 1000
}' >"$inputs/lines"
i=0
: >"$inputs/mix"
while [ "$(wc -c <"$inputs/mix")" -lt "$mix_bytes" ]; do
	{ echo "---- copy $i ----"; cat "$inputs/base"; head -c $((i * 4099 % 65536)) "$inputs/lines"; } >>"$inputs/mix"
	i=$((i + 1))
done
truncate -s "$mix_bytes" "$inputs/mix"
echo "input: $(wc -c <"$inputs/mix") bytes of mixed text and binary, $(wc -l <"$inputs/lines") text lines"

# ---- steps ----
# step NAME COMMAND...: runs COMMAND (stdin from the caller), stdout to
# NAME.out, stderr to NAME.err, and records the status and checksums.
step() {
	name=$1
	shift
	"$@" >"$name.out" 2>"$name.err"
	echo "$name rc=$? out=$(cksum <"$name.out") err=$(cksum <"$name.err")"
}
# same NAME FILE1 FILE2: records whether two files are identical
same() { if cmp -s "$2" "$3"; then echo "$1 same"; else echo "$1 DIFFERENT"; fi; }

# ---- the programs: each prog_NAME runs in an empty directory ----
prog_gzip() {
	step gz gzip -n -c -6 <"$inputs/mix"
	step gz1 gzip -n -c -1 <"$inputs/lines"
	step gunzip gzip -d -c <gz.out
	same gzip-round-trip gunzip.out "$inputs/mix"
	head -c 100000 gz.out >truncated.gz
	step gunzip-truncated gzip -d -c <truncated.gz
	step gzip-test gzip -t <gz.out
}
prog_zstd() {
	step zst zstd -q -c -3 -T1 <"$inputs/mix"
	step zst19 zstd -q -c -12 -T1 <"$inputs/lines"
	step unzstd zstd -q -d -c <zst.out
	same zstd-round-trip unzstd.out "$inputs/mix"
	step unzstd19 zstd -q -d -c <zst19.out
	same zstd-round-trip-lines unzstd19.out "$inputs/lines"
	head -c 100000 zst.out >truncated.zst
	step unzstd-truncated zstd -q -d -c <truncated.zst
	# a dictionary: training moves many small samples around
	mkdir samples
	(cd samples && split -b 4096 -a 4 "$inputs/lines" s && rm -f $(ls | tail -n +400))
	step dict zstd -q --train samples/* -o dictionary --maxdict=16384
	step dict-file cat dictionary
	step zst-dict zstd -q -c -D dictionary <"$inputs/lines"
}
prog_xz() {
	head -c $((mix_bytes / 4)) "$inputs/mix" >part
	step xz xz -c -1 -T1 <part
	step unxz xz -d -c <xz.out
	same xz-round-trip unxz.out part
}
prog_bzip2() {
	head -c $((mix_bytes / 4)) "$inputs/mix" >part
	step bz bzip2 -c -9 <part
	step bunzip bzip2 -d -c <bz.out
	same bzip2-round-trip bunzip.out part
}
prog_sqlite3() {
	cat >build.sql <<EOF
PRAGMA page_size = 4096;
CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, n INTEGER, data BLOB);
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < $sql_rows)
INSERT INTO t SELECT i, printf('row-%06d-%s', i, hex(i * 2654435761 % 4294967296)), (i * 7919) % 10007,
	CAST(replace(hex(zeroblob(i % 700 + 1)), '00', char(65 + i % 26, 97 + i % 23)) AS BLOB) FROM c;
CREATE INDEX t_n ON t(n);
CREATE INDEX t_name ON t(name DESC);
UPDATE t SET data = data || data WHERE id % 3 = 0;
DELETE FROM t WHERE id % 11 = 0;
CREATE TABLE big(k INTEGER PRIMARY KEY, v BLOB);
INSERT INTO big SELECT id, zeroblob(id % 50 * 1000) || data FROM t WHERE id % 97 = 1;
VACUUM;
EOF
	cat >query.sql <<'EOF'
SELECT count(*), sum(length(data)), sum(n), max(name), min(name) FROM t;
SELECT n % 10, count(*), sum(length(data)), group_concat(substr(name, 5, 6), ',') FROM (SELECT * FROM t ORDER BY id LIMIT 300) GROUP BY n % 10;
SELECT id, name, n, length(data), hex(substr(data, 1 + id % 50, 16)) FROM t ORDER BY n DESC, id LIMIT 2000;
SELECT k, length(v), hex(substr(v, length(v) - 20, 20)) FROM big ORDER BY k;
SELECT id, name FROM t WHERE name LIKE '%-A%' ORDER BY name DESC LIMIT 50;
PRAGMA integrity_check;
EOF
	step build sqlite3 db.sqlite <build.sql
	step db-file cat db.sqlite
	step query sqlite3 db.sqlite <query.sql
	step dump sqlite3 db.sqlite .dump
	step restore sqlite3 db2.sqlite <dump.out
	step db2-file cat db2.sqlite
	step bad-sql sqlite3 db.sqlite "SELEC nothing FROM nowhere;"
	step missing-table sqlite3 db.sqlite "SELECT * FROM missing;"
}
prog_git() {
	export HOME="$PWD" GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=T GIT_AUTHOR_EMAIL=t@example.org \
		GIT_COMMITTER_NAME=T GIT_COMMITTER_EMAIL=t@example.org \
		GIT_AUTHOR_DATE='2024-01-01T00:00:00Z' GIT_COMMITTER_DATE='2024-01-01T00:00:00Z'
	step init git -c init.defaultBranch=main init -q repo
	cd repo || return
	git config core.autocrlf false
	i=0
	chunk=$((mix_bytes / git_files))
	while [ $i -lt "$git_files" ]; do
		mkdir -p "d$((i % 7))"
		dd if="$inputs/mix" of="d$((i % 7))/f$i.bin" bs="$chunk" skip=$i count=1 status=none
		i=$((i + 1))
	done
	cp "$inputs/lines" lines.txt
	step add git add -A
	step commit git commit -q -m "first"
	sed 's/alpha/ALPHA/; s/9/nine/' lines.txt >l && mv l lines.txt
	head -c 5000 "$inputs/lines" >>d0/f0.bin
	rm -f d1/f1.bin
	step add2 git add -A
	step commit2 git commit -q -m "second"
	step log git log --stat --format='%H %an %ad %s'
	step diff git diff HEAD~1 HEAD -- lines.txt
	step show git show HEAD:lines.txt
	step ls-tree git ls-tree -r -l HEAD
	step archive git archive --format=tar HEAD
	step archive-tgz git -c tar.tar.gz.command='gzip -n -c' archive --format=tar.gz HEAD
	step fsck git fsck --strict --no-progress
	step rev-parse-bad git rev-parse --verify no-such-branch
	cd .. || return
	step not-a-repo git -C "$inputs" log
}
prog_perl() {
	cat >bytes.pl <<'EOF'
use strict; use warnings;
binmode STDOUT;
my $sum = 0;
open(my $fh, '<:raw', $ARGV[0]) or die; local $/; my $mix = <$fh>; close $fh;
my $s = $mix x 3;                                   # repetition
for my $k (0 .. 2000) {                             # slices at odd places
	my $piece = substr($s, ($k * 7919) % (length($s) - 70000), 1 + ($k * 131) % 65536);
	$sum += unpack('%32C*', $piece);
	substr($s, $k * 13, length($piece) >> 4) = reverse substr($piece, 0, length($piece) >> 4);
}
my @parts = split /\n/, substr($s, 0, 2_000_000);
my $joined = join("\0", reverse @parts);
my $packed = pack('(N n C a7 H8)*', map { ($_, $_ & 0xffff, $_ & 0xff, "x$_", sprintf('%08x', $_)) } 0 .. 50000);
my @back = unpack('(N n C a7 H8)*', $packed);
my $sp = sprintf('%s', '-' x 1_000_000) . ('ab' x 500_000);
(my $t = $s) =~ tr/a-z/A-Z/;
printf "%d %d %d %d %d %d %d\n", length($s), $sum, unpack('%32C*', $joined), length($packed),
	scalar(@back), unpack('%32C*', $sp), unpack('%32C*', $t);
print substr($t, 12345, 4096);
exit 3;
EOF
	step bytes perl bytes.pl "$inputs/mix"
	step die perl -e 'die "deliberate\n"'
}
prog_python3() {
	cat >bytes.py <<'EOF'
import hashlib, struct, sys, zlib
mix = open(sys.argv[1], 'rb').read()
h = hashlib.sha256()
s = mix * 3                                          # repetition
for k in range(3000):                                # slices
    a = (k * 7919) % (len(s) - 70000)
    h.update(s[a:a + 1 + (k * 131) % 65536])
b = bytearray(s)                                     # bytearray copies
m = memoryview(b)
for k in range(1, 2000):
    n = (k * 977) % 65536
    b[k * 11: k * 11 + n] = m[len(b) - n - k:len(b) - k].tobytes()
    b[k:k + 100] = bytes(100)
b[1000:1000 + len(mix) // 2] = b[1001:1001 + len(mix) // 2]   # overlapping move
h.update(b)
packed = b''.join(struct.pack('<IHBx7sQd', i, i & 0xffff, i & 0xff, b'x%06d' % i, i * 2654435761, i / 7) for i in range(60000))
h.update(packed)
h.update(str([struct.unpack_from('<IHBx7sQd', packed, 32 * i) for i in range(0, 60000, 97)]).encode())
h.update(zlib.compress(mix[:2_000_000], 6))
h.update(bytes(reversed(mix[:1_000_000])))
h.update(('é€' * 300000).encode('utf-8') + ('x' * 1000000).encode('utf-16'))
print(len(s), len(b), len(packed), h.hexdigest())
sys.exit(5)
EOF
	step bytes "$python" bytes.py "$inputs/mix"
	step raise "$python" -c 'raise SystemExit("deliberate")'
}
prog_sort() {
	step sort sort -S 1M --parallel=1 -T . "$inputs/lines"
	step sort-num sort -S 1M --parallel=1 -T . -k2,2n -k1,1r "$inputs/lines"
	step sort-unique sort -u -t' ' -k1,1 "$inputs/lines"
	step sort-binary sort -S 2M --parallel=1 -T . "$inputs/mix"
	step sort-check sort -c "$inputs/lines"
	step sort-missing sort "$inputs/no-such-file"
}
prog_cp() {
	step cp cp "$inputs/mix" copy
	same cp-copy copy "$inputs/mix"
	step cp-sparse cp --sparse=always "$inputs/mix" sparse
	same cp-sparse-copy sparse "$inputs/mix"
	step cp-reflink-never cp -r --reflink=never "$inputs" tree
	same cp-tree tree/lines "$inputs/lines"
	step cat-pipe sh -c 'cat "$1" | cat | cat' sh "$inputs/mix"
	step cp-missing cp "$inputs/no-such-file" x
}
prog_tar() {
	mkdir t && cp "$inputs/lines" "$inputs/base" t/
	step tar tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - t
	step untar tar -xOf tar.out
}
prog_coreutils() {
	step sha256 sha256sum "$inputs/mix"
	step base64 base64 "$inputs/mix"
	step unbase64 base64 -d base64.out
	same base64-round-trip unbase64.out "$inputs/mix"
	step dd dd if="$inputs/mix" bs=65537 conv=swab status=none
	step tr tr 'a-z\000' 'A-Z\377' <"$inputs/mix"
	step split-cat sh -c 'split -b 1000003 "$1" part. && cat part.*' sh "$inputs/mix"
	step diff diff "$inputs/lines" "$inputs/base"
	step uniq sh -c 'cut -d" " -f1 "$1" | sort | uniq -c' sh "$inputs/lines"
}
prog_openssl() {
	step enc openssl enc -aes-256-cbc -K 000102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f \
		-iv 0f0e0d0c0b0a09080706050403020100 -in "$inputs/mix"
	step dec openssl enc -d -aes-256-cbc -K 000102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f \
		-iv 0f0e0d0c0b0a09080706050403020100 -in enc.out
	same openssl-round-trip dec.out "$inputs/mix"
	step sha512 openssl dgst -sha512 "$inputs/mix"
}

python=$(command -v /usr/bin/python3 || command -v python3)
programs="gzip zstd sqlite3 git perl python3 sort cp"
[ "$long" = 1 ] && programs="$programs xz bzip2 tar coreutils openssl"

# record PROGRAM VARIANT: the record of PROGRAM run under VARIANT ("none": no library)
record() {
	work=$scratch/work # the same path every time: paths can appear in output
	rm -rf "$work"
	mkdir "$work"
	(
		cd "$work" || exit 1
		if [ "$2" != none ]; then
			MEMSHIM_IMPL=$2 LD_PRELOAD=$MEMSHIM_LIBRARY${LD_PRELOAD:+:$LD_PRELOAD}
			export MEMSHIM_IMPL LD_PRELOAD
		fi
		"prog_$1"
	) >"$scratch/record" 2>&1
	echo "status $?" >>"$scratch/record"
	# The known bug: a library loaded with the program and bound at once
	# (-z now) is relocated before libmemshim.so, so glibc calls our
	# resolvers before we are relocated: "Relink `lib' with `libmemshim.so'
	# for IFUNC symbol `memset'", then usually a crash.
	if cat "$scratch/record" "$work"/*.err "$work"/*/*.err 2>/dev/null |
		grep -q "Relink .* with .*libmemshim.so' for IFUNC symbol"; then
		echo "known bug: resolver called before libmemshim.so is relocated" >>"$scratch/record"
	fi
}

for program in $programs; do
	command=$program
	case $program in
	python3) command=$python ;;
	coreutils) command=sha256sum ;;
	esac
	if [ -z "$command" ] || ! command -v "$command" >/dev/null 2>&1; then
		skip "$program is not installed"
		continue
	fi
	record "$program" none
	mv "$scratch/record" "$scratch/expected"
	if grep -q -E 'DIFFERENT|rc=127 ' "$scratch/expected"; then
		fail "$program without the library does not work:"
		cat "$scratch/expected"
		continue
	fi
	for variant in $variants; do
		record "$program" "$variant"
		if cmp -s "$scratch/record" "$scratch/expected"; then
			pass "$program under $variant: same output and exit statuses ($(wc -l <"$scratch/record") steps)"
		elif grep -q '^known bug: resolver called before' "$scratch/record"; then
			xfail "$program under $variant: glibc calls the resolvers before libmemshim.so is relocated:"
			grep -h -m1 "Relink" "$scratch/record" "$scratch/work"/*.err "$scratch/work"/*/*.err 2>/dev/null | head -1
		else
			fail "$program under $variant differs from the run without the library:"
			diff "$scratch/expected" "$scratch/record" | head -20
		fi
	done
done

echo "$known failed by the known bug"
finish
