$PROFDIFF diff examples/good.pb.gz tests/data/bad/diff-base-output.pb.gz
