$PROFDIFF help check-significance
