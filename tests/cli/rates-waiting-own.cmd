$PROFDIFF diff -n 3 --same-process --normalize duration tests/data/saturation/waiting-base.pb.gz tests/data/saturation/waiting-new.pb.gz
