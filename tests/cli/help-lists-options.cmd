$PROFDIFF --help | grep -e '^Commands:' -e '^  check-series ' -e '^Options of diff' -e '--rows N' -e '--format F' -e '--min-effect' -e '--focus RE'
