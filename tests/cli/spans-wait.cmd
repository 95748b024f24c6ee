$PROFDIFF spans -q -n 5 --trace tests/data/spans/wait.otlp.json.gz tests/data/spans/wait.pb.gz
