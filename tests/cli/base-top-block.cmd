$PROFDIFF top --base tests/data/corpus/go-block-before.pb tests/data/corpus/go-block-after.pb
