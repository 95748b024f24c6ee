$PROFDIFF top --unit ms -i alloc_space tests/data/corpus/go-heap-after.pb
