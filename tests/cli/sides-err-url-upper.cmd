$PROFDIFF diff --base-tag endpoint=/fast --new-tag endpoint=/slow HTTP://127.0.0.1:9/debug/pprof/profile
