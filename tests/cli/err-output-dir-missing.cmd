$PROFDIFF diff -f markdown -o /nonexistent/dir/report.md examples/good.pb.gz examples/bad.pb.gz
