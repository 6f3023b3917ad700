#!/bin/sh
# Builds the two peers that `memshim bench --peer` is compared with, from
# their public sources, into DIR:
#   DIR/libaocl-libmem.so   AMD's AOCL-LibMem (CMake, C): memcpy, memmove,
#                           memset and more
#   DIR/libfolly_memcpy.so  folly's memcpy.S alone, assembled with
#                           FOLLY_MEMCPY_IS_MEMCPY: memcpy and memmove (one
#                           function; it has no memset)
# and prints the commit of each and the bench command that uses them.
# Needs git, cmake (3.22 or later), a C compiler ($CC, default gcc) and the
# network.  AOCL_COMMIT and FOLLY_COMMIT pin a commit (default: the newest).
# Not run by the tests.
# usage: bench/build-peers.sh DIR
set -eu
dir=${1:?usage: bench/build-peers.sh DIR}
cc=${CC:-gcc}
mkdir -p "$dir"
cd "$dir"

# A shallow clone at the commit asked for, and that commit's id printed.
clone() { # URL DIRECTORY COMMIT
	[ -d "$2/.git" ] || git clone -q --depth 1 "$1" "$2"
	if [ -n "$3" ]; then
		git -C "$2" fetch -q --depth 1 origin "$3"
		git -C "$2" checkout -q FETCH_HEAD
	fi
	echo "$2: commit $(git -C "$2" rev-parse HEAD)"
}

# AOCL-LibMem's default build is for the CPU it is built on: on AMD, that
# Zen generation's code alone (memcpy is __memcpy_zen4 on a Zen 4, with no
# dispatch at run time).  Elsewhere that build has no memory functions to
# pick, so the dynamic dispatcher is built instead, which picks by CPUID.
clone https://github.com/amd/aocl-libmem aocl-libmem "${AOCL_COMMIT:-}"
aocl_options=
grep -q '^vendor_id.*AuthenticAMD' /proc/cpuinfo || aocl_options='-D ALMEM_DYN_DISPATCH=Y'
# shellcheck disable=SC2086 # the options are words
cmake -D CMAKE_C_COMPILER="$cc" $aocl_options -S aocl-libmem -B aocl-libmem/build >aocl-libmem.cmake.log
cmake --build aocl-libmem/build --target aocl-libmem -j "$(nproc)" >aocl-libmem.build.log
cp -L aocl-libmem/build/src/libaocl-libmem.so libaocl-libmem.so
grep -E '## Compiling|Compiler doesn|Non AMD' aocl-libmem.cmake.log || true

# folly's memcpy.S needs AVX2 (it is empty without __AVX2__) and nothing
# from the C library.
clone https://github.com/facebook/folly folly "${FOLLY_COMMIT:-}"
"$cc" -mavx2 -DFOLLY_MEMCPY_IS_MEMCPY -shared -nostdlib -o libfolly_memcpy.so folly/folly/memcpy.S

echo "built $(pwd)/libaocl-libmem.so and $(pwd)/libfolly_memcpy.so; compare with:"
echo "  memshim bench --cases dist --peer aocl=$(pwd)/libaocl-libmem.so --peer folly=$(pwd)/libfolly_memcpy.so"
