#!/bin/sh
# Build examples/native/prog from prog.c as the examples want it: -O2
# with debug information and frame pointers, so that perf record -g and
# gperftools can walk its stacks.  The committed prog is the binary the
# committed captures were recorded from (its build id is in them):
# rebuilding it with another compiler makes a binary that no longer
# matches them, so capture.sh is to be run again after this.
# -fno-reorder-functions keeps main out of .text.startup: with it there,
# the compile unit's code is two address ranges, and go tool pprof (Go
# 1.19) then names none of its functions.
#
#	sh examples/native/build.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
${CC:-cc} -O2 -g -fno-omit-frame-pointer -fno-reorder-functions -o "$here/prog" "$here/prog.c"
