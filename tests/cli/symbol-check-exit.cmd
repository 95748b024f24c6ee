$PROFDIFF check-significance -q --binary-path tests/data/symbol -f json tests/data/symbol/base.prof.gz tests/data/symbol/changed.prof.gz | jq -c '{result, exit_status, first: .rows[0].name}'
