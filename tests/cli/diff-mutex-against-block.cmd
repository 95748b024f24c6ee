$PROFDIFF diff -q -n 2 tests/data/types/mutex-none-01.pb.gz tests/data/types/block-none-01.pb.gz
