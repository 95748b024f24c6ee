sh tests/data/symbol/vs-pprof.sh
