$PROFDIFF spans -q -n 3 -f markdown --slow 100ms --trace tests/data/spans/wait.otlp.json.gz tests/data/spans/wait.pb.gz
