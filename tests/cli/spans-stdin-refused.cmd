cat tests/data/spans/code.pb.gz | $PROFDIFF spans -q --trace tests/data/spans/code.otlp.json.gz -
