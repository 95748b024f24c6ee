#!/bin/sh
# Make endpoints.pb.gz again: simprof (tests/tools/simprof.c, built by
# `make tests`) draws five groups of 1000 samples over its call tree,
# each labelled with an endpoint and a span id; the two /slow spans
# spend twice the weight in main.sortByRelevance.  The draw depends only
# on the options; the gzip bytes also on zlib's version.
#	sh tests/data/labels/make.sh [BUILD]
set -eu
b=${1:-build}
cd "$(dirname "$0")"
"../../../$b/tests/simprof" -n 1000 -s 32 \
    -L endpoint=/fast,span_id=00f067aa0ba902b7 \
    -L endpoint=/fast,span_id=53995c3f42cd8ad8 \
    -L endpoint=/slow,span_id=a3ce929d0e0e4736 -e main.sortByRelevance=2 \
    -L endpoint=/slow,span_id=c9a85f6f4a2f1e1d -e main.sortByRelevance=2 \
    -L endpoint=/health,span_id=e6b3c41a9d0f2b85 \
    endpoints.pb.gz
