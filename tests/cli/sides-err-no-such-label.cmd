$PROFDIFF check-significance --base-tag endpiont=/fast --new-tag endpoint=/slow tests/data/labels/endpoints.pb.gz
