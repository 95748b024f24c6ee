$PROFDIFF top -n 3 tests/data/starved/datadog-starved.wall.pb.gz
