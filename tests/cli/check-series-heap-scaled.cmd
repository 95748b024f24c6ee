$PROFDIFF check-series -i inuse_space tests/data/corpus/go-heap-series-t0.pb.gz tests/data/corpus/go-heap-series-t9.pb.gz
