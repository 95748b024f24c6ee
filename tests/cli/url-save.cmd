sh tests/tools/withserver.sh '$PROFDIFF top -n 1 --save "$TMPD/notes" "$URL/debug/pprof/examples/bad.pb.gz?seconds=1" >/dev/null && cmp "$TMPD"/notes/* examples/bad.pb.gz && ls "$TMPD/notes"'
