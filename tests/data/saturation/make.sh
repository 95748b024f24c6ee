#!/bin/sh
# Make the four profiles again: simprof (tests/tools/simprof.c, built by
# `make tests`) over its call tree, 10ms a sample.  The busy pair keeps
# one core full (-u 1) on both sides, so that main.sortByRelevance's
# fourfold weight takes its time from every other function; the waiting
# pair is a process at 40% of a core whose new window adds the same work
# on top (27% more samples in the same 100s: -u 0.5084) and does 15% less
# in main.formatResponse.  The draws depend only on the options; the
# gzip bytes also on zlib's version.
#	sh tests/data/saturation/make.sh [BUILD]
set -eu
b=${1:-build}
cd "$(dirname "$0")"
sim="../../../$b/tests/simprof"
"$sim" -n 4000 -s 1 busy-base.pb.gz
"$sim" -n 4000 -s 101 -e main.sortByRelevance=4 busy-new.pb.gz
"$sim" -n 4000 -u 0.4 -s 1 waiting-base.pb.gz
"$sim" -n 5084 -u 0.5084 -s 101 -e main.sortByRelevance=4 \
    -e main.formatResponse=0.85 waiting-new.pb.gz
