sh tests/tools/withserver.sh '$PROFDIFF top "$URL/status/200?body="'
