$PROFDIFF spans -q --slow p100 --trace tests/data/spans/code.otlp.json.gz tests/data/spans/code.pb.gz
