$PROFDIFF diff --base-tag endpoint=/fast --new-tag endpoint=/slw tests/data/labels/endpoints.pb.gz
