$PROFDIFF diff -n 6 -i alloc_objects tests/data/types-delta/heap-none-01.delta.pb.gz tests/data/types-delta/heap-more-01.delta.pb.gz
