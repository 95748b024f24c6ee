sh tests/tools/withserver.sh '$PROFDIFF check-significance -q -n 3 "$URL/examples/good.pb.gz" "$URL/examples/bad.pb.gz"'
