$PROFDIFF diff -n 2 tests/data/quantum/measured.pb.gz tests/data/quantum/new.pb.gz
