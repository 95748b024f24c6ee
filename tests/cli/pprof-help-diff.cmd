$PROFDIFF help diff
