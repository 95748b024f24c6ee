$PROFDIFF top tests/data/bad/legacy-gperftools-cpu.prof
