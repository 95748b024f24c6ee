$PROFDIFF spans -q --span-name 'GET /nothing' --trace tests/data/spans/code.otlp.json.gz tests/data/spans/code.pb.gz
