$PROFDIFF top -f json -n 3 tests/data/folded/pyspy.folded
