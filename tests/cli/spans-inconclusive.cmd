$PROFDIFF spans -q --slow 100ms --trace tests/data/spans/inconclusive.json tests/data/spans/code.pb.gz
