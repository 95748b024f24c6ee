$PROFDIFF top tests/data/perf/data/truncated.data # needs perf
