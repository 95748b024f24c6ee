$PROFDIFF diff -q -f json -n 1 examples/good.pb.gz examples/idle.pb.gz | jq -c .warnings; $PROFDIFF diff -f json -n 1 tests/data/good/valid.pb tests/data/good/period-1ms.pb | jq -c .warnings
