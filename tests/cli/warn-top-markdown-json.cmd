$PROFDIFF top -f markdown -n 2 examples/idle.pb.gz; $PROFDIFF top -q -f json -n 1 examples/idle.pb.gz | jq -c .warnings
