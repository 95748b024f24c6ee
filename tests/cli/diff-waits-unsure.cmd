$PROFDIFF diff -n 2 tests/data/waits/mutex-leaning.pb.gz tests/data/waits/block-sure.pb.gz
