gunzip -c tests/data/spans/code.jaeger.json.gz | $PROFDIFF spans -q -n 3 --trace - tests/data/spans/code.pb.gz
