a=$($PROFDIFF top -q -n3 -fcsv examples/good.pb.gz; echo "exit $?") && b=$($PROFDIFF top -q -n 3 -f csv examples/good.pb.gz; echo "exit $?") && test "$a" = "$b" && printf "%s\n" "$a" | tail -n 6
