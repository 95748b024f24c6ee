t=$(mktemp -d) && printf '{"rows": [{"name": "main", "flat": 12}]}\n' > "$t/report.json" && { $PROFDIFF top "$t/report.json"; echo "status $?"; } 2>&1 | sed "s|$t|T|g"; rm -r "$t"
