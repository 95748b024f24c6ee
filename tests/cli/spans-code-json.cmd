$PROFDIFF spans -q -n 3 -f json --trace tests/data/spans/code.otlp.json.gz tests/data/spans/code.pb.gz
