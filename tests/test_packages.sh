#!/bin/sh
# tests/install-packages.sh, which run-tests.sh runs first, against fake
# dpkg-query, apt-get, sudo and id: it installs exactly the listed packages
# that are missing, in one apt-get, through sudo only where not root, with
# one line that names them; says nothing when none is missing or where
# there is no dpkg; and a failed install is one more line, not the end of
# the run.
. "${top_srcdir:-.}/tests/lib.sh"
installer=$top_srcdir/tests/install-packages.sh
bin=$scratch/bin log=$scratch/log
mkdir "$bin"
# FAKE_MISSING: the packages dpkg-query calls not installed; FAKE_UID: id -u;
# FAKE_APT_STATUS: apt-get's exit status.  Each apt-get and sudo is logged.
cat >"$bin/dpkg-query" <<'SH'
#!/bin/sh
for p; do :; done
case " $FAKE_MISSING " in *" $p "*) exit 1 ;; esac
printf 'install ok installed'
SH
cat >"$bin/apt-get" <<'SH'
#!/bin/sh
echo "apt-get $* [${DEBIAN_FRONTEND:-}]" >>"$FAKE_LOG"
exit "${FAKE_APT_STATUS:-0}"
SH
cat >"$bin/sudo" <<'SH'
#!/bin/sh
echo sudo >>"$FAKE_LOG"
exec "$@"
SH
cat >"$bin/id" <<'SH'
#!/bin/sh
echo "$FAKE_UID"
SH
chmod +x "$bin"/*

# install MISSING UID APT_STATUS: the installer's output in $out, its log in $logged.
install() {
	rm -f "$log"
	out=$(PATH=$bin:$PATH DEBIAN_FRONTEND='' FAKE_LOG=$log FAKE_MISSING=$1 FAKE_UID=$2 FAKE_APT_STATUS=$3 sh "$installer" "$top_srcdir" 2>&1)
	rc=$?
	logged=$(cat "$log" 2>/dev/null)
}

install "" 1000 0
expect_eq "nothing missing: nothing said, nothing run" "$rc:$out:$logged" "0::"
install "zstd protobuf-compiler" 1000 0
expect_eq "two missing: one line naming them" "$rc:$out" "0:== installing the Debian packages the tests need: protobuf-compiler zstd"
expect_eq "two missing, not root: apt-get through sudo, once to update, once for both" "$logged" "sudo
apt-get update -qq []
sudo
apt-get install -y -qq protobuf-compiler zstd [noninteractive]"
install "python3-protobuf" 0 0
expect_eq "as root: no sudo" "$logged" "apt-get update -qq []
apt-get install -y -qq python3-protobuf [noninteractive]"
install "valgrind" 0 100
expect_eq "a failed install: one more line, and the run goes on" "$rc:$out" "0:== installing the Debian packages the tests need: valgrind
== could not install them: the tests that need them will say SKIP"
install "not-a-listed-package" 0 0
expect_eq "a package that is not listed is not installed" "$out:$logged" ":"

# Not Debian: no dpkg-query, nothing said.
mkdir "$scratch/nodpkg"
for tool in grep sort; do ln -s "$(command -v $tool)" "$scratch/nodpkg/$tool"; done
out=$(PATH=$scratch/nodpkg FAKE_LOG=$log FAKE_MISSING=zstd /bin/sh "$installer" "$top_srcdir" 2>&1)
expect_eq "no dpkg: nothing said" "$?:$out" "0:"

# The two packages the pprof decoder needs (tests/test_pprof.sh) are listed.
for p in protobuf-compiler python3-protobuf; do
	expect_eq "tests/packages.txt lists $p" "$(grep -cx "$p" "$top_srcdir/tests/packages.txt")" 1
done
finish
