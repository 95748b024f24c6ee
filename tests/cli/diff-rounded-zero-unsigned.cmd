$PROFDIFF diff -q -n 0 tests/data/good/subperiod-values.pb tests/data/good/subperiod-values.pb | grep -E 'main\.(main|work)$'
