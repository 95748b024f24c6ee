$PROFDIFF check-significance --peek 'formatResponse$' examples/good.pb.gz examples/bad.pb.gz
