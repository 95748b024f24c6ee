$PROFDIFF top --base tests/data/corpus/go-heap-before.pb tests/data/corpus/go-heap-after.pb
