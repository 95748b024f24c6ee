$PROFDIFF top -i 0 -n 5 tests/data/corpus/go-heap-after.pb
