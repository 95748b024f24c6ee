sh tests/tools/withserver.sh '$PROFDIFF top "$URL/status/404"'
