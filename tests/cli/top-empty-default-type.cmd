$PROFDIFF top tests/data/good/empty-default-type.pb; $PROFDIFF top -q -i samples tests/data/good/empty-default-type.pb
