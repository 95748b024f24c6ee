$PROFDIFF spans -q --new-tag span_id=@tests/data/spans/bad/other.json --trace tests/data/spans/code.otlp.json.gz tests/data/spans/code.pb.gz
