$PROFDIFF top -q -f svg tests/data/flame/names.pb
