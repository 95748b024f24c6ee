a=$($PROFDIFF top -q -nodecount=3 examples/good.pb.gz; echo "exit $?") && b=$($PROFDIFF top -q --rows 3 examples/good.pb.gz; echo "exit $?") && test "$a" = "$b" && printf "%s\n" "$a" | tail -n 6
