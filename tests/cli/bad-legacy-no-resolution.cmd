$PROFDIFF top tests/data/legacy-bad/no-resolution.javaheap
