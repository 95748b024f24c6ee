for c in top diff check-significance; do $PROFDIFF help $c | grep -e --seconds -e --save; done
