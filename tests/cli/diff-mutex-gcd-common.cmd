$PROFDIFF diff -n 3 -i contentions tests/data/types/mutex-none-01.pb.gz tests/data/types/mutex-none-02.pb.gz
