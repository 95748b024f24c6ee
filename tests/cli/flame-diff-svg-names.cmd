$PROFDIFF diff -q -f svg tests/data/flame/names.pb tests/data/good/valid.pb
