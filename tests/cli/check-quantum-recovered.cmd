$PROFDIFF check-significance tests/data/quantum/base.pb.gz tests/data/quantum/new.pb.gz
