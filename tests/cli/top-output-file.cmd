t=$(mktemp -d) && $PROFDIFF top -n 3 -o "$t/report.txt" examples/bad.pb.gz && cat "$t/report.txt" && ls "$t" && rm -r "$t"
