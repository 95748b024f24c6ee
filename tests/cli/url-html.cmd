sh tests/tools/withserver.sh '$PROFDIFF top "$URL/status/200?type=text/html&body=<html>index</html>"'
