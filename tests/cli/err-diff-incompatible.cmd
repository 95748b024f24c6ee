$PROFDIFF diff examples/good.pb.gz tests/data/corpus/go-heap-after.pb
