d=$(mktemp -d) && $PROFDIFF top -q -n 2 -output=$d/top.txt examples/good.pb.gz && tail -n 3 $d/top.txt; rm -rf $d
