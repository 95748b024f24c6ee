$PROFDIFF top -n 5 -i alloc_space --tag bytes=1kb:64kb tests/data/corpus/go-heap-series-t9.pb.gz
