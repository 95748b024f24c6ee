$PROFDIFF diff -f json -n 0 examples/good.pb.gz examples/bad.pb.gz | jq -e ".rows | length > 100 and (.[0].name == \"main.sortByRelevance\")"
