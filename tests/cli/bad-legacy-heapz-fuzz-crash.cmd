$PROFDIFF top tests/data/bad/legacy-heapz-fuzz-crash.txt
