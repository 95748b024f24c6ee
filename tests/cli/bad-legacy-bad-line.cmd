$PROFDIFF top tests/data/legacy-bad/bad-line.goroutine
