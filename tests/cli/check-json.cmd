$PROFDIFF check-significance -f json examples/good.pb.gz examples/bad.pb.gz | jq -c "{result, exit_status, first: .rows[0].name, path: .rows[0].path}"
