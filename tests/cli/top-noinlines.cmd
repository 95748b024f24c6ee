$PROFDIFF top --noinlines -n 5 tests/data/corpus/go-cpu-fib.pb.gz
