$PROFDIFF top -n 5 -f json --ignore "^sort\\." --focus "^main\\." examples/bad.pb.gz | jq -c "{filters, first: .rows[0]}"
