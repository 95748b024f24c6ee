$PROFDIFF spans -n 5 --trace tests/data/spans/code.otlp.json.gz tests/data/spans/code.pb.gz
