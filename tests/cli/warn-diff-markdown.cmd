$PROFDIFF diff -f markdown -n 3 --list 'no_such*func' examples/good.pb.gz examples/idle.pb.gz
