$PROFDIFF series -f json --by-time tests/data/pricing-runs/none-04.pb.gz tests/data/pricing-runs/none-03.pb.gz tests/data/pricing-runs/none-02.pb.gz tests/data/pricing-runs/none-01.pb.gz
