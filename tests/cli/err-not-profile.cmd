$PROFDIFF top tests/data/bad/PROVENANCE.tsv
