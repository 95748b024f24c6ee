$PROFDIFF top -n 3 -i alloc_space --tag bytes=:512b --relative -f json tests/data/corpus/go-heap-series-t9.pb.gz | jq -c "{total, filters, relative, filters_keep, rows}"
