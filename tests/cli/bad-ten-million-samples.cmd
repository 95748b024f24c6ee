$PROFDIFF top tests/data/bad/ten-million-samples.pb.gz
