$PROFDIFF diff --base-tag endpoint=. --new-tag endpoint=/slow tests/data/labels/endpoints.pb.gz
