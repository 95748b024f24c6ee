sh tests/tools/withserver.sh '$PROFDIFF top -n 2 "$URL/redirect?to=/redirect%3Fto%3D/examples/bad.pb.gz" && $PROFDIFF top "$URL/redirect?to=/status/404"; cat "$LOG"'
