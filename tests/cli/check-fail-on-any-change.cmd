$PROFDIFF check-significance --fail-on=any-change --min-effect 8 --focus "^encoding/json" examples/good.pb.gz examples/bad.pb.gz
