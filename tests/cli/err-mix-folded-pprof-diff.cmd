$PROFDIFF diff examples/good.pb.gz tests/data/folded/perf-good.folded -- examples/bad.pb.gz
