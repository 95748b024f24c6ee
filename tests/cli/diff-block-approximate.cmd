$PROFDIFF diff -n 3 tests/data/corpus/go-block-before.pb tests/data/corpus/go-block-after.pb
