$PROFDIFF top -q -n 3 --unit kb -f csv -i alloc_space tests/data/corpus/go-heap-after.pb
