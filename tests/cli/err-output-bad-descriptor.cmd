$PROFDIFF top -o /dev/fd/9 examples/bad.pb.gz 9>&-
