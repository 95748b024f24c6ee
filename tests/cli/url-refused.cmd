sh tests/tools/withserver.sh '$PROFDIFF top "$DEAD/debug/pprof/profile"'
