$PROFDIFF check-significance -n 1 --focus '^main\.sortByRelevance$' examples/good.pb.gz examples/bad.pb.gz
