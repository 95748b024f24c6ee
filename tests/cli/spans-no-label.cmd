$PROFDIFF spans -q --span-label trace_id --trace tests/data/spans/code.otlp.json.gz tests/data/spans/code.pb.gz
