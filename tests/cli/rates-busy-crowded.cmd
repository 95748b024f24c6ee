$PROFDIFF diff -n 3 --same-process --normalize duration tests/data/saturation/busy-base.pb.gz tests/data/saturation/busy-new.pb.gz
