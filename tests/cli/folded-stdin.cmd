$PROFDIFF top -n 3 - < tests/data/folded/pyspy.folded
