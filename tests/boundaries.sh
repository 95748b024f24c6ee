#!/bin/sh
# tests/boundaries.sh: check the tree against the boundaries that
# doc/ARCHITECTURE.md states.  A file's folder is its room: src/ROOM/
# holds a room's code, its public headers and its private ones (named
# *_int.h); src/main.c is the entry, room "main"; include/ holds the
# one header every room may read, and counts as "support".  The page
# gives two tables: the rooms, top room first (the order a file's
# includes must follow), and the checks with what each applies to and
# allows.  This script reads both, builds the graph of the #include
# "..." lines of src/ and include/, and checks:
#
#   folders              every file of src/ is in a room's folder, and
#                        every room of the table has its folder
#   order                a file includes headers of its own room and of
#                        rooms below it only
#   private              a *_int.h header only from its own room
#   prints               only the rooms named print, name stdout or
#                        stderr, or exit; the files named apart may exit
#   pb-c                 who includes profile.pb-c.h, through any chain
#   decoder-headers      that the rooms named include no header of the
#                        rooms listed, through any chain
#   stats-pure           the statistics' includes
#   no-cycle             no include cycle
#   file-lines           the length of each file of src/
#   function-lines       the length of each function of src/
#   room-function-lines  the same, for the rooms named, at their limit
#
# Each breach is one line, "FAIL check: file ...: what", naming the
# file, the function or the chain of includes; VERBOSE=1 prints the
# passes too.  The last line is "boundaries: N passed, N failed".
# BOUNDARIES_ROOT runs it on another tree (default: this checkout).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
root=${BOUNDARIES_ROOT:-$here}
cd "$root" || exit 2
doc=doc/ARCHITECTURE.md
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

ok() { pass=$((pass + 1)); [ -n "${VERBOSE:-}" ] && echo "ok $*"; return 0; }
not_ok() { fail=$((fail + 1)); echo "FAIL $*"; }
finish() {
	echo "boundaries: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}

if [ ! -f "$doc" ]; then
	not_ok "boundaries: $doc is missing"
	finish
fi

# table MARKER: the rows of the table after the line "<!-- MARKER:",
# one line each: the cells, separated by tabs, each cell's words (the
# words in backquotes if it has any, otherwise all its words).
table() {
	awk -v m="<!-- $1:" '
	index($0, m) == 1 { on = 1; row = 0; next }
	on && !/^\|/ { if (row > 0) exit; next }
	on {
		row++
		if (row <= 2)
			next		# the header and the line under it
		n = split($0, cell, "|")
		out = ""
		for (i = 2; i < n; i++) {
			c = cell[i]; w = ""
			if (c ~ /`/) {
				while (match(c, /`[^`]*`/)) {
					w = w (w == "" ? "" : " ") \
					    substr(c, RSTART + 1, RLENGTH - 2)
					c = substr(c, RSTART + RLENGTH)
				}
			} else {
				gsub(/^[ \t]+|[ \t]+$/, "", c)
				w = c
			}
			out = out (i == 2 ? "" : "\t") w
		}
		print out
	}' "$doc"
}

table rooms >"$tmp/rooms.tsv"
table boundaries >"$tmp/rules.tsv"
if [ ! -s "$tmp/rooms.tsv" ] || [ ! -s "$tmp/rules.tsv" ]; then
	not_ok "boundaries: $doc has no rooms or no boundaries table"
	finish
fi
# "rank room", top room first.
awk -F'\t' '{ print NR, $1 }' "$tmp/rooms.tsv" >"$tmp/order"

# rule CHECK COLUMN: the words of a check's column (3: what it applies
# to, 4: files or limit).
rule() {
	awk -F'\t' -v c="$1" -v k="$2" '$1 == c { print $k; exit }' "$tmp/rules.tsv"
}

# The tree: "path room" for every file of src/ and include/.  A file
# straight in src/ other than main.c has no room ("-").
find src include -type f \( -name '*.c' -o -name '*.h' \) 2>/dev/null |
    sort | awk '{
	n = split($0, p, "/")
	if (p[1] == "include") room = "support"
	else if (n == 2) room = ($0 == "src/main.c") ? "main" : "-"
	else room = p[2]
	print $0, room
}' >"$tmp/files"

# room_files ROOM...: the files of those rooms.
room_files() {
	for r in "$@"; do
		awk -v r="$r" '$2 == r { print $1 }' "$tmp/files"
	done
}

# The include graph, "includer included" by path.  An include with a
# folder ("core/agg.h") is src/'s; one without is the includer's own
# folder's, else include/'s, else generated (profile.pb-c.h, the input
# room's, as the page says).
while read -r f r; do
	d=$(dirname "$f")
	sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f" |
	    while read -r h; do
		case $h in
		*/*) p=src/$h ;;
		*) if [ -f "$d/$h" ]; then p=$d/$h
		   elif [ -f "include/$h" ]; then p=include/$h
		   else p=$h; fi ;;
		esac
		echo "$f $p"
	done
done <"$tmp/files" >"$tmp/edges"

# room_of PATH: the room of a file of the tree, or of a generated header.
room_of() {
	awk -v f="$1" '$1 == f { print $2; found = 1 } END { if (!found) print "input" }' \
	    "$tmp/files"
}
rank_of() {
	awk -v r="$1" '$2 == r { print $1; found = 1 } END { if (!found) print 0 }' \
	    "$tmp/order"
}

# reach FILE TARGET...: for each target FILE reaches through its
# includes, a line "target chain", the chain the first one found
# (FILE -> a.h -> TARGET).  No output if none is reached.
reach() {
	awk -v start="$1" -v targets="$(shift; echo "$*")" '
	{ adj[$1] = adj[$1] " " $2 }
	function walk(f, chain,    n, k, g, kids) {
		seen[f] = 1
		if (f != start && (f in want) && !(f in found)) {
			found[f] = 1
			print f, chain
		}
		n = split(adj[f], kids, " ")
		for (k = 1; k <= n; k++) {
			g = kids[k]
			if (!(g in seen))
				walk(g, chain " -> " g)
		}
	}
	END {
		n = split(targets, t, " ")
		for (i = 1; i <= n; i++)
			want[t[i]] = 1
		walk(start, start)
	}' "$tmp/edges"
}

# folders: every file in a room's folder; every room with its folder.
while read -r f r; do
	if [ "$r" = - ]; then
		not_ok "folders: $f is in no room's folder (src/ROOM/, or src/main.c)"
	elif [ "$(rank_of "$r")" -eq 0 ]; then
		not_ok "folders: $f is in src/$r/, which is no room of $doc"
	else
		ok "folders: $f is in $r"
	fi
done <"$tmp/files"
while read -r rank r; do
	case $r in
	main) [ -f src/main.c ] ;;
	support) [ -d src/support ] ;;
	*) [ -d "src/$r" ] ;;
	esac && ok "folders: room $r has its place" ||
	    not_ok "folders: room $r of $doc has no folder src/$r/"
done <"$tmp/order"

# order, private: each include against the includer's room.
while read -r f h; do
	r=$(room_of "$f")
	s=$(room_of "$h")
	[ "$r" = - ] && continue
	fr=$(rank_of "$r")
	hr=$(rank_of "$s")
	if [ "$hr" -lt "$fr" ]; then
		not_ok "order: $f (room $r) includes $h of room $s, which is above it"
	else
		ok "order: $f -> $h"
	fi
	case $h in
	*_int.h)
		if [ "$r" = "$s" ]; then
			ok "private: $f -> $h"
		else
			not_ok "private: $f (room $r) includes $h, private to room $s"
		fi ;;
	esac
done <"$tmp/edges"

# prints: outside the rooms named, no file prints, names stdout or
# stderr, or exits; the files named apart may exit (out of memory).
allowed=" $(rule prints 3) "
apart=" $(rule prints 4) "
while read -r f r; do
	case $f in *.c) ;; *) continue ;; esac
	case $allowed in *" $r "*) continue ;; esac
	# Comments and string literals are not calls.
	got=$(sed -e 's://.*$::' -e 's:/\*.*\*/::g' -e 's:"\([^"\\]\|\\.\)*"::g' "$f" |
	    grep -nE '(^|[^A-Za-z0-9_])(stdout|stderr)([^A-Za-z0-9_]|$)|(^|[^A-Za-z0-9_.>])(printf|vprintf|puts|putchar|perror|warnx?|vwarnx?|errx?|verrx?|exit|_exit|abort|cli_warn)[ \t]*\(' |
	    head -1)
	if [ -z "$got" ]; then
		ok "prints: $f"
		continue
	fi
	case $apart in
	*" ${f#src/} "*)
		if echo "$got" | grep -qE '(^|[^A-Za-z0-9_])(errx?|exit)[ \t]*\('; then
			ok "prints: $f exits, as the page allows"
			continue
		fi ;;
	esac
	not_ok "prints: $f (room $r) prints or exits, line ${got%%:*}: only${allowed% } may"
done <"$tmp/files"

# pb-c: whoever reaches profile.pb-c.h must be listed.
pbok=" $(rule pb-c 4) "
while read -r f r; do
	got=$(reach "$f" profile.pb-c.h)
	if [ -z "$got" ]; then
		ok "pb-c: $f does not include profile.pb-c.h"
	else
		case $pbok in
		*" ${f#src/} "*) ok "pb-c: $f may include profile.pb-c.h" ;;
		*) not_ok "pb-c: $f includes profile.pb-c.h (${got#* }), and only${pbok% } may" ;;
		esac
	fi
done <"$tmp/files"

# decoder-headers: the rooms named reach no header of the rooms listed.
# shellcheck disable=SC2046
forbid="$(room_files $(rule decoder-headers 4) | grep '\.h$' | tr '\n' ' ') profile.pb-c.h"
# shellcheck disable=SC2046
for f in $(room_files $(rule decoder-headers 3)); do
	# shellcheck disable=SC2086
	got=$(reach "$f" $forbid)
	if [ -z "$got" ]; then
		ok "decoder-headers: $f"
	else
		echo "$got" | while read -r h chain; do
			echo "FAIL decoder-headers: $f includes $h ($chain)"
		done
		fail=$((fail + $(echo "$got" | wc -l)))
	fi
done

# stats-pure: its own room's headers, and C11's headers but stdio.h.
c11="assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h
limits.h locale.h math.h setjmp.h signal.h stdalign.h stdarg.h stdatomic.h
stdbool.h stddef.h stdint.h stdlib.h stdnoreturn.h string.h tgmath.h
threads.h time.h uchar.h wchar.h wctype.h"
sroom=$(rule stats-pure 3)
for p in $(room_files "$sroom"); do
	bad=""
	for h in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$p"); do
		case $h in "$sroom"/*) ;; *) bad="$bad \"$h\"" ;; esac
	done
	for h in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*<\([^>]*\)>.*/\1/p' "$p"); do
		case " $(echo $c11) " in *" $h "*) ;; *) bad="$bad <$h>" ;; esac
	done
	if [ -z "$bad" ]; then
		ok "stats-pure: $p"
	else
		not_ok "stats-pure: $p includes$bad; it may include only its room's headers and C11's without I/O"
	fi
done

# no-cycle: every cycle of the include graph, once, from its smallest
# name.
awk '
{ adj[$1] = adj[$1] " " $2; node[$1] = node[$2] = 1 }
function walk(f, chain,    n, k, g, kids) {
	on[f] = 1
	n = split(adj[f], kids, " ")
	for (k = 1; k <= n; k++) {
		g = kids[k]
		if (g == start)
			cycles[chain " -> " g] = 1
		else if (!(g in on) && g > start)
			walk(g, chain " -> " g)
	}
	delete on[f]
}
END {
	for (start in node)
		walk(start, start)
	for (c in cycles)
		print c
}' "$tmp/edges" | sort >"$tmp/cycles"
if [ -s "$tmp/cycles" ]; then
	while read -r c; do
		not_ok "no-cycle: $c"
	done <"$tmp/cycles"
else
	ok "no-cycle: $(wc -l <"$tmp/edges") includes, no cycle"
fi

# file-lines.
limit=$(rule file-lines 4)
while read -r f r; do
	case $f in src/*) ;; *) continue ;; esac
	n=$(wc -l <"$f")
	if [ "$n" -gt "$limit" ]; then
		not_ok "file-lines: $f has $n lines, over $limit"
	else
		ok "file-lines: $f"
	fi
done <"$tmp/files"

# funcs FILE LIMIT CHECK: a FAIL line for every function of FILE longer
# than LIMIT lines, from the line of its name (the last line at column
# 0 with a "(" before the "{" at column 0 that opens its body) to the
# "}" at column 0 that closes it; the number of them on stdout's last
# line, as "N bad".
funcs() {
	awk -v f="$1" -v lim="$2" -v chk="$3" '
	/^[A-Za-z_]/ && /\(/ && !/;[ \t]*$/ { cand = NR; line = $0 }
	!start && /;[ \t]*$/ { cand = 0 }
	/^\{/ && cand { start = cand; name = line; cand = 0 }
	/^\}/ && start {
		n = NR - start + 1
		sub(/\(.*/, "", name)
		sub(/.*[ \t*]/, "", name)
		if (n > lim) {
			printf "FAIL %s: %s: %s() has %d lines, over %d\n", chk, f, name, n, lim
			bad++
		}
		start = 0
	}
	END { print bad + 0, "bad" }' "$1"
}
# lengths CHECK LIMIT FILE...: funcs() over each .c file.
lengths() {
	chk=$1 lim=$2
	shift 2
	for f in "$@"; do
		case $f in *.c) ;; *) continue ;; esac
		funcs "$f" "$lim" "$chk" >"$tmp/funcs"
		n=$(tail -1 "$tmp/funcs" | cut -d' ' -f1)
		sed '$d' "$tmp/funcs"
		if [ "$n" -eq 0 ]; then ok "$chk: $f"; else fail=$((fail + n)); fi
	done
}
# shellcheck disable=SC2046
lengths function-lines "$(rule function-lines 4)" $(awk '$1 ~ /^src\// { print $1 }' "$tmp/files")
# shellcheck disable=SC2046
lengths room-function-lines "$(rule room-function-lines 4)" \
    $(room_files $(rule room-function-lines 3))

finish
