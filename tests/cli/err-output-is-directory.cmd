t=$(mktemp -d) && { $PROFDIFF top -o "$t" examples/bad.pb.gz; echo "status $?"; } 2>&1 | sed "s|$t|T|g"; ls -A "$t"; rm -r "$t"
