$PROFDIFF top -q -f json ../shared/corpus/edge-invalid-utf8.pb.gz | jq -r ".rows[].name" | od -c | head -3
