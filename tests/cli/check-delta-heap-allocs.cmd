$PROFDIFF check-significance -q -n 3 -i alloc_space tests/data/types-delta/heap-none-01.delta.pb.gz tests/data/types-delta/heap-bigger-01.delta.pb.gz
