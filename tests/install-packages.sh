#!/bin/sh
# Installs the Debian packages that building and testing memshim need
# (.ci/packages.txt and tests/packages.txt, one a line) and that are not
# installed yet, as quickstart.sh does for building: one line that names
# them, apt-get through sudo where not root.  Nothing to do, or no dpkg and
# apt-get (not Debian): says nothing.  A failed install says so in one line
# and exits 0: the tests that need a package then say SKIP.
# usage: tests/install-packages.sh SOURCE_DIR
top=${1:-.}
command -v dpkg-query >/dev/null && command -v apt-get >/dev/null || exit 0
missing=""
# shellcheck disable=SC2013 # one package a word
for p in $(grep -hv '^#' "$top/.ci/packages.txt" "$top/tests/packages.txt" | sort -u); do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -n "$missing" ] || exit 0
echo "== installing the Debian packages the tests need:$missing"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
# shellcheck disable=SC2086 # the packages are words
{ $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing; } \
	>/dev/null || echo "== could not install them: the tests that need them will say SKIP"
exit 0
