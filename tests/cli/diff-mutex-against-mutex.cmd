$PROFDIFF diff -q -n 2 tests/data/types/mutex-none-01.pb.gz tests/data/types/mutex-hold5-01.pb.gz >/dev/null
