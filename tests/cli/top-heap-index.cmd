$PROFDIFF top -i alloc_space -n 5 tests/data/corpus/go-heap-after.pb
