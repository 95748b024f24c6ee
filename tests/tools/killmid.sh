#!/bin/sh
# A signal mid-run leaves no temporary file: profdiff, writing its
# report with -o FILE, is held while it reads a FIFO that gives it the
# start of a profile and then nothing; once FILE.tmpXXXXXX exists, it
# is sent each signal in turn (a run each), and must end killed by that
# signal with nothing left beside the input.  The tests/cli case
#
#	sh tests/tools/killmid.sh [SIGNAL...]	(default: INT TERM HUP)
#
# runs it from the repository root with $PROFDIFF set.  Each signal
# prints one line: how profdiff ended and what was left.  Nothing here
# is timed: it waits for the file to appear (up to 60 seconds, for a
# slow wrapper such as valgrind), and profdiff waits for bytes that
# never come.
set -u
[ $# -gt 0 ] || set -- INT TERM HUP
d=$(mktemp -d) || exit 70
pid=
stop() {
	[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
	rm -rf "$d"
}
trap stop EXIT
trap 'exit 129' HUP INT TERM
# A background job of a shell without job control starts with SIGINT
# and SIGQUIT ignored, which profdiff keeps (as it keeps nohup's
# SIGHUP): give it the default action, as a terminal's job has.
if env --default-signal=INT true 2>/dev/null; then
	dfl="env --default-signal=INT,QUIT,HUP,TERM"
else
	dfl="perl -e \$SIG{\$_}='DEFAULT'for('INT','QUIT','HUP','TERM');exec(@ARGV)or(die) --"
fi
for sig in "$@"; do
	mkdir "$d/run"
	mkfifo "$d/run/in"
	# Read-write, so that this open does not wait for a reader (Linux)
	# and the FIFO never ends while it is open.
	exec 3<>"$d/run/in"
	head -c 20 examples/good.pb.gz >&3
	# shellcheck disable=SC2086
	$dfl $PROFDIFF top -o "$d/run/report.txt" "$d/run/in" 2>"$d/err" &
	pid=$!
	i=0
	while :; do
		for f in "$d"/run/report.txt.tmp*; do
			break
		done
		[ -e "$f" ] && break
		i=$((i + 1))
		if [ $i -gt 1200 ] || ! kill -0 "$pid" 2>/dev/null; then
			echo "$sig: no temporary file appeared"
			cat "$d/err"
			break
		fi
		sleep 0.05
	done
	kill -s "$sig" "$pid"
	{ wait "$pid"; } 2>/dev/null
	st=$?
	pid=
	exec 3>&-
	rm "$d/run/in"
	left=$(ls -A "$d/run")
	echo "$sig: exit status $st (killed by SIG$(kill -l "$st")), left behind: ${left:-nothing}"
	cat "$d/err"
	rm -rf "$d/run"
done
