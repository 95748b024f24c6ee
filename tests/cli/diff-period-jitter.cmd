$PROFDIFF diff -n 1 tests/data/good/valid.pb tests/data/good/period-jitter.pb >/dev/null; $PROFDIFF diff -n 1 tests/data/good/valid.pb tests/data/good/period-1ms.pb >/dev/null
