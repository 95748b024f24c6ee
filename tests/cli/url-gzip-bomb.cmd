sh tests/tools/withserver.sh '$PROFDIFF top "$URL/tests/data/bad/gzip-bomb.pb.gz"'
