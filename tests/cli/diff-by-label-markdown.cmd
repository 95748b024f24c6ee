$PROFDIFF diff -q -f markdown --by-label thread_name tests/data/corpus/ebpf-parca-agent-labels.pb.gz tests/data/corpus/ebpf-parca-agent-labels.pb.gz
