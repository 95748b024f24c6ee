$PROFDIFF diff -n 4 tests/data/quantum/base.pb.gz tests/data/quantum/new.pb.gz
