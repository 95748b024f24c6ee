$PROFDIFF top tests/data/perf/data/header-only.data # needs perf
