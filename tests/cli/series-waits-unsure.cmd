$PROFDIFF check-series -n 1 tests/data/waits/mutex-leaning.pb.gz tests/data/waits/block-sure.pb.gz tests/data/waits/block-sure.pb.gz
