sh tests/tools/withserver.sh '$PROFDIFF top "$URL/loop"; echo "exit $?"; $PROFDIFF top "$URL/hops?n=0"; echo "exit $?"; grep -c "/loop" "$LOG"; grep -c "/hops" "$LOG"'
