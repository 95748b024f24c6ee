$PROFDIFF top -q -n 2 --unit minimum -f csv -i alloc_objects tests/data/corpus/go-heap-after.pb
