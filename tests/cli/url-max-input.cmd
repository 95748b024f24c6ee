sh tests/tools/withserver.sh '$PROFDIFF top --max-input 4k "$URL/examples/bad.pb.gz"'
