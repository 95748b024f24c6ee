sh tests/tools/withserver.sh '$PROFDIFF top --save README.md "$URL/examples/bad.pb.gz"'
