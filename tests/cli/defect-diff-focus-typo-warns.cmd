$PROFDIFF diff -n 2 --focus '^mian\.' --ignore zzz examples/good.pb.gz examples/bad.pb.gz
