$PROFDIFF diff -q --unit ms -f svg examples/good.pb.gz examples/bad.pb.gz | grep -o 'Base: [^<]*\|New: [^<]*'
