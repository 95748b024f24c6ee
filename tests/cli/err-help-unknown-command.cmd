$PROFDIFF help dif
