$PROFDIFF diff -q -n 2 --unit ms --normalize duration -f markdown examples/good.pb.gz examples/bad.pb.gz
