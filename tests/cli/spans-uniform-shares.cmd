$PROFDIFF spans -q -n 5 --normalize total --trace tests/data/spans/uniform.otlp.json.gz tests/data/spans/uniform.pb.gz
