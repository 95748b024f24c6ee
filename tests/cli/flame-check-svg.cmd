{ $PROFDIFF check-significance -q -f svg examples/good.pb.gz examples/bad.pb.gz; echo "exit $?"; } | grep -o "Test: [^<]*\|^exit .*"
