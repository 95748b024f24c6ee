$PROFDIFF top -q -sample_index=alloc_space -unit=kb tests/data/corpus/go-heap-after.pb
