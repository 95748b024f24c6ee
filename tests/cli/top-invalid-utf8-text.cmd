$PROFDIFF top -q ../shared/corpus/edge-invalid-utf8.pb.gz 2>&1 | sed -n "6,\$p" | wc -l
