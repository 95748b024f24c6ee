sh tests/views-pprof.sh $PROFDIFF
