$PROFDIFF top -q --by-label function --tag-ignore function=fast ../shared/corpus/go-cpu-labels-pyroscope.pb.gz
