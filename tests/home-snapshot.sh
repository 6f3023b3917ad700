#!/bin/sh
# Prints what the tests must leave alone of a user's files, one line each,
# sorted, so that two snapshots compare with diff:
#   - the entries of HOME and of the cache folders (XDG_CACHE_HOME, and
#     HOME/.cache), one level deep: a file's size and time of change, a
#     folder's name (what changes inside other programs' folders, such as a
#     browser's cache, is theirs);
#   - everything below the cache folders' memshim/, at any depth (the
#     calibration file memshim tune writes).
# The first two lines name the HOME and XDG_CACHE_HOME it looked at.
# usage: tests/home-snapshot.sh HOME XDG_CACHE_HOME   (either may be empty)
set -u
home=$1
cache=$2
echo "home $home"
echo "xdg_cache_home $cache"
# entries DIR DEPTH: one line per entry below DIR, down to DEPTH levels.
entries() {
	[ -d "$1" ] || { echo "absent $1"; return; }
	find "$1" -mindepth 1 -maxdepth "$2" \( -type d -printf 'd %p\n' \) -o -printf '%y %p %s %T@\n' 2>/dev/null
}
{
	if [ -n "$home" ]; then
		entries "$home" 1
		entries "$home/.cache" 1
		entries "$home/.cache/memshim" 64
	fi
	if [ -n "$cache" ]; then
		entries "$cache" 1
		entries "$cache/memshim" 64
	fi
} | LC_ALL=C sort -u
