$PROFDIFF top -n 5 tests/data/folded/pyspy.folded
