$PROFDIFF diff --base-tag span_id=@/dev/null --new-tag endpoint=/slow tests/data/labels/endpoints.pb.gz
