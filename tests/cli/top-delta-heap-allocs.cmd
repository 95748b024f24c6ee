$PROFDIFF top -n 5 -i alloc_space tests/data/types-delta/heap-more-01.delta.pb.gz; $PROFDIFF top tests/data/types-delta/heap-more-01.delta.pb.gz
