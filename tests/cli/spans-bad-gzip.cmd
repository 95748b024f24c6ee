$PROFDIFF spans -q --trace tests/data/spans/bad/truncated.json.gz tests/data/spans/code.pb.gz
