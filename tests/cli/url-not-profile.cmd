sh tests/tools/withserver.sh '$PROFDIFF top "$URL/examples/pricing-diff.png"'
