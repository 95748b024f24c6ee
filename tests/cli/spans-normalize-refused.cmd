$PROFDIFF spans -q --normalize none --trace tests/data/spans/code.otlp.json.gz tests/data/spans/code.pb.gz
