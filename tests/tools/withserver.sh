#!/bin/sh
# Run one shell command line with a test HTTP server up
# (tests/tools/httpd.py, on an ephemeral port of 127.0.0.1, serving the
# repository), then stop it: the URL cases of tests/cli are
#
#	sh tests/tools/withserver.sh 'COMMAND LINE'
#
# run from the repository root.  The command sees $URL (the server,
# http://127.0.0.1:PORT), $DEAD (a port just closed), $LOG (the
# requests the server got, a line each) and $TMPD (an empty folder),
# and runs under a timeout.  Its output is given back with the ports,
# $TMPD and the UTC times in --save's file names written as PORT, DEAD,
# TMPD and TIME, so that the goldens do not change from run to run; its
# exit status is its own.  The server never outlives this script.
set -u
[ $# -eq 1 ] || { echo "usage: sh tests/tools/withserver.sh 'command'" >&2; exit 64; }
tmpd=$(mktemp -d) || exit 70
pid=
stop() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmpd"
}
trap stop EXIT
trap 'exit 129' HUP INT TERM
/usr/bin/python3 tests/tools/httpd.py . "$tmpd/port" "$tmpd/log" 300 \
    2>"$tmpd/httpd.err" &
pid=$!
i=0
while [ ! -s "$tmpd/port" ]; do
	i=$((i + 1))
	if [ $i -gt 100 ] || ! kill -0 "$pid" 2>/dev/null; then
		echo "withserver: the server did not start" >&2
		cat "$tmpd/httpd.err" >&2
		exit 70
	fi
	sleep 0.1
done
read -r port dead <"$tmpd/port"
URL=http://127.0.0.1:$port
DEAD=http://127.0.0.1:$dead
LOG=$tmpd/log
TMPD=$tmpd/t
mkdir "$TMPD"
: >"$LOG"
export URL DEAD LOG TMPD
# libcurl honours the proxy variables: never send 127.0.0.1 to a proxy.
no_proxy=127.0.0.1 NO_PROXY=127.0.0.1
export no_proxy NO_PROXY
timeout 240 sh -c "$1" >"$tmpd/out" 2>"$tmpd/err" </dev/null
rc=$?
clean() {
	sed -e "s/127\.0\.0\.1\([:_]\)$port\([^0-9]\|\$\)/127.0.0.1\1PORT\2/g" \
	    -e "s/127\.0\.0\.1\([:_]\)$dead\([^0-9]\|\$\)/127.0.0.1\1DEAD\2/g" \
	    -e "s|$TMPD|TMPD|g" \
	    -e 's/[0-9]\{8\}T[0-9]\{6\}Z/TIME/g' "$1"
}
clean "$tmpd/out"
clean "$tmpd/err" >&2
exit $rc
