sh tests/tools/withserver.sh '$PROFDIFF top --max-input 1M "$URL/endless"'
