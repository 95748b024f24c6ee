$PROFDIFF series -q tests/data/types/mutex-none-01.pb.gz tests/data/types/mutex-none-02.pb.gz tests/data/types/block-none-01.pb.gz
