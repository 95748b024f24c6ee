$PROFDIFF top tests/data/legacy-bad/no-end-marker-cpu.prof
