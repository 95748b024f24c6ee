$PROFDIFF top -h
