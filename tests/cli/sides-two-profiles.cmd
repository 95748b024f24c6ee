$PROFDIFF diff -q -f json --base-tag endpoint=/slow tests/data/labels/endpoints.pb.gz examples/good.pb.gz | jq -c '.selection, .base.samples, .new.samples'
