cat examples/good.pb.gz | $PROFDIFF diff - -
