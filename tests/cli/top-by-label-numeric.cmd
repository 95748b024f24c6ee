$PROFDIFF top -n 6 -i alloc_space --by-label bytes tests/data/corpus/go-heap-series-t9.pb.gz
