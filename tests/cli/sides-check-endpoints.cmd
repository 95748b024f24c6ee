$PROFDIFF check-significance --base-tag endpoint=/fast --new-tag endpoint=/slow tests/data/labels/endpoints.pb.gz
