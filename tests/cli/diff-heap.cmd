$PROFDIFF diff -n 5 tests/data/corpus/go-heap-before.pb tests/data/corpus/go-heap-after.pb
