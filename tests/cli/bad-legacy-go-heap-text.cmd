$PROFDIFF top tests/data/bad/legacy-go-heap-text.txt
