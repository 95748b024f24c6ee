$PROFDIFF diff -i alloc_space --by-label bytes -n 8 tests/data/corpus/go-heap-series-t0.pb.gz tests/data/corpus/go-heap-series-t9.pb.gz
