$PROFDIFF top -q tests/data/good/concatenated-members.pb.gz
