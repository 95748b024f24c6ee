$PROFDIFF diff -q -n 1 --noinlines --list calculateScore --source-path tests/data/src examples/good.pb.gz examples/bad.pb.gz
