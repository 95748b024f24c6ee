$PROFDIFF top -q --by-label span_id ../shared/corpus/go-cpu-span-id-labels.pb.gz
