$PROFDIFF diff examples/good.pb.gz --tag endpoint=/slow tests/data/labels/endpoints.pb.gz
