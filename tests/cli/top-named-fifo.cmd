t=$(mktemp -d) && mkfifo "$t/p.pb.gz" && { gzip -c < tests/data/good/valid.pb > "$t/p.pb.gz" & } && $PROFDIFF top "$t/p.pb.gz" 2>&1 | sed "s|$t|DIR|g"; wait; rm -r "$t"
