$PROFDIFF top --binary-path tests/data/symbol --show '^(main|hash_all|mix|sum_all|_start)$' tests/data/symbol/base.prof.gz | sed 's/; \/usr\/lib\/x86_64-linux-gnu\/libc.so.6: .*//'
