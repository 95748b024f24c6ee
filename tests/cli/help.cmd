$PROFDIFF --help
