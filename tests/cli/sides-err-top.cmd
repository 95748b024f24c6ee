$PROFDIFF top --base-tag endpoint=/fast tests/data/labels/endpoints.pb.gz
