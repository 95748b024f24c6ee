$PROFDIFF diff -unit=MB -i alloc_objects tests/data/corpus/go-heap-after.pb tests/data/corpus/go-heap-after.pb
