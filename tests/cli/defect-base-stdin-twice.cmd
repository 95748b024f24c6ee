$PROFDIFF top -q --base - - < tests/data/types/allocs-none-01.base.pb.gz
