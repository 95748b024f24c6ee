$PROFDIFF top -n 1 tests/data/good/wall-idle.pb; $PROFDIFF top -n 1 -i wall tests/data/good/wall-idle.pb
