$PROFDIFF top -q -n 5 --tag-ignore "span_id=^239$" ../shared/corpus/go-cpu-span-id-labels.pb.gz
