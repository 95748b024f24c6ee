$PROFDIFF top -n 3 -i alloc_space --base tests/data/corpus/go-heap-before.pb tests/data/corpus/go-heap-after.pb
