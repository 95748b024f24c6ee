$PROFDIFF diff -q -f markdown -n 1 --base-tag endpoint=/fast --new-tag endpoint=/slow tests/data/labels/endpoints.pb.gz tests/data/labels/endpoints.pb.gz
