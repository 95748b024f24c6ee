$PROFDIFF top tests/data/perf/bad/truncated-header.txt
