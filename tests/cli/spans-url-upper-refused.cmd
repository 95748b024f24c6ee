$PROFDIFF spans -q --trace tests/data/spans/code.otlp.json.gz Http://127.0.0.1:9/debug/pprof/profile
