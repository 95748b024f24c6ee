$PROFDIFF check-significance --base-tag span_id=00f067aa0ba902b7 --new-tag span_id=53995c3f42cd8ad8 tests/data/labels/endpoints.pb.gz
