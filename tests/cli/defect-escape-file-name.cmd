$PROFDIFF top "$(printf "no\033[2Jsuch\nfile.pb.gz")"
