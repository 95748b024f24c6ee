#!/bin/sh
# Capture the gperftools CPU profiles the symbolization tests read, from
# prog (built here from prog.c: -O2 with DWARF and frame pointers), run
# from a folder outside the tree so that the profiles' memory maps name
# a path the tests do not have: they find the binary with --binary-path
# or PPROF_BINARY_PATH, as a user whose profiles come from another
# machine would.  other/prog is the same source built with another
# build id, for the mismatch test; base-buildid.pb is base.prof.gz as a
# protobuf whose prog mapping has prog's build id (tests/tools topprof
# and setbuildid, from "make tests" in $BUILD).  Needs gcc and
# gperftools (libgoogle-perftools-dev), g++ for cxx.cpp; the tests
# need none of them.
#
#	BUILD=build sh tests/data/symbol/capture.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
flags="-O2 -g -fno-omit-frame-pointer -fno-reorder-functions"
obj=$(mktemp -d)
${CXX:-g++} $flags -c -o "$obj/cxx.o" "$here/cxx.cpp"
${CC:-gcc} $flags -c -o "$obj/prog.o" "$here/prog.c"
${CXX:-g++} -o "$here/prog" "$obj/prog.o" "$obj/cxx.o"
${CC:-gcc} $flags -DOTHER_BUILD=1 -c -o "$obj/other.o" "$here/prog.c"
mkdir -p "$here/other"
${CXX:-g++} -o "$here/other/prog" "$obj/other.o" "$obj/cxx.o"
rm -rf "$obj"
run=/tmp/profdiff-symbol-capture
rm -rf "$run"
mkdir -p "$run"
cp "$here/prog" "$run/prog"
lib=$(ls /usr/lib/x86_64-linux-gnu/libprofiler.so.0 2>/dev/null) || {
	echo "capture.sh: gperftools' libprofiler.so.0 is not installed" >&2
	exit 1
}
# base: one sum_all() a round; changed: two.
for kind in base:1 changed:2; do
	name=${kind%%:*}
	CPUPROFILE="$run/$name.prof" CPUPROFILE_FREQUENCY=1000 \
	    LD_PRELOAD=$lib "$run/prog" 1500 "${kind#*:}" >/dev/null
	gzip -9n <"$run/$name.prof" >"$here/$name.prof.gz"
done
tools=$here/../../../${BUILD:-build}/tests
id=$(LC_ALL=C readelf -n "$here/prog" | sed -n 's/.*Build ID: //p')
"$tools/topprof" "$here/base.prof.gz" "$run/base.pb.gz"
"$tools/setbuildid" "$run/base.pb.gz" /prog "$id" "$here/base-buildid.pb"
rm -rf "$run"
# What go tool pprof names in the same profile, for vs-pprof.sh.
if command -v go >/dev/null 2>&1; then
	PPROF_BINARY_PATH=$here HOME=/nonexistent go tool pprof -top \
	    "$here/base.prof.gz" >"$here/pprof-top.txt"
fi
