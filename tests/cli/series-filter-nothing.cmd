$PROFDIFF series --focus nomatchxyz tests/data/pricing-runs/none-01.pb.gz tests/data/pricing-runs/none-02.pb.gz
