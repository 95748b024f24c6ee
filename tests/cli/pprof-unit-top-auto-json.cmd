$PROFDIFF top -q -n 3 --unit auto -f json -i alloc_space tests/data/corpus/go-heap-after.pb
