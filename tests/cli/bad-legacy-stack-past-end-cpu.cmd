$PROFDIFF top tests/data/legacy-bad/stack-past-end-cpu.prof
