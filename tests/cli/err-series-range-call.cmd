$PROFDIFF series -q --granularity addresses tests/data/series-range/calls-a.heap tests/data/series-range/calls-b.heap
