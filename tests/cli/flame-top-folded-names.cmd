$PROFDIFF top -q -f folded tests/data/flame/names.pb
