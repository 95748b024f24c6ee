$PROFDIFF top -q -f json --by-label thread_name tests/data/corpus/ebpf-parca-agent-labels.pb.gz | jq -c "{granularity, by_label, rows}"
