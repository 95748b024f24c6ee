$PROFDIFF top -n 0 tests/data/corpus/go-heap-series-t9.pb.gz | head -2; echo "status $?"
