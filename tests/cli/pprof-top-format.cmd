a=$($PROFDIFF top -q -n 3 -top examples/good.pb.gz; echo "exit $?") && b=$($PROFDIFF top -q -n 3 -f text examples/good.pb.gz; echo "exit $?") && test "$a" = "$b" && printf "%s\n" "$a" | tail -n 6
