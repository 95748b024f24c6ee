$PROFDIFF top tests/data/legacy-bad/truncated-cpu.prof
