$PROFDIFF diff --new-tag endpoint=/slow tests/data/labels/endpoints.pb.gz
