$PROFDIFF --version
