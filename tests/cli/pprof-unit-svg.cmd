$PROFDIFF top -q --unit ms -f svg examples/good.pb.gz | grep -A1 '<title>all' | sed -n 2p | cut -d'<' -f1
