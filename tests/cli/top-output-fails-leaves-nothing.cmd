t=$(mktemp -d) && $PROFDIFF top -o "$t/report.txt" tests/data/bad/dangling-location.pb; echo "status $?"; ls "$t"; rm -r "$t"
