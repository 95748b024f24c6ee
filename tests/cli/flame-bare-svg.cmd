a=$($PROFDIFF -f svg examples/good.pb.gz examples/bad.pb.gz); b=$($PROFDIFF diff -f svg examples/good.pb.gz examples/bad.pb.gz); [ -n "$a" ] && [ "$a" = "$b" ] && echo "bare form: same SVG as diff"
