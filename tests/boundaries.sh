#!/bin/sh
# tests/boundaries.sh: check the tree against the boundaries that
# doc/ARCHITECTURE.md states.  The page's two tables are the one place
# that says which file is in which room and what each check allows:
# the rooms table (room, files) and the boundaries table (check, rule,
# what it applies to, files or limit).  This script reads both, builds
# the graph of the #include "..." lines of src/ and include/, and
# checks:
#
#   pb-c                 who includes profile.pb-c.h, through any chain
#   decoder-headers      that the rooms named include none of the headers
#   stats-pure           stats.c's includes
#   no-cycle             no include cycle
#   file-lines           the length of each file of src/
#   function-lines       the length of each function of src/
#   room-function-lines  the same, for the rooms named, at their limit
#   every-file           every file of src/ and include/ in one room
#
# Each breach is one line, "FAIL check: file ...: what", naming the
# file, the function or the chain of includes; VERBOSE=1 prints the
# passes too.  A file the page lists that the tree does not have is a
# "# skip" line (another branch may bring it).  The last line is
# "boundaries: N passed, N failed, N skipped".  BOUNDARIES_ROOT runs
# it on another tree (default: this checkout).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
root=${BOUNDARIES_ROOT:-$here}
cd "$root" || exit 2
doc=doc/ARCHITECTURE.md
pass=0
fail=0
skip=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

ok() { pass=$((pass + 1)); [ -n "${VERBOSE:-}" ] && echo "ok $*"; return 0; }
not_ok() { fail=$((fail + 1)); echo "FAIL $*"; }

if [ ! -f "$doc" ]; then
	not_ok "boundaries: $doc is missing"
	echo "boundaries: $pass passed, $fail failed, $skip skipped"
	exit 1
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
	echo "boundaries: $pass passed, $fail failed, $skip skipped"
	exit 1
fi
# "room file", one file a line.
awk -F'\t' '{ n = split($2, f, " "); for (i = 1; i <= n; i++) print $1, f[i] }' \
    "$tmp/rooms.tsv" >"$tmp/rooms"

# rule CHECK COLUMN: the words of a check's column (3: what it applies
# to, 4: files or limit).
rule() {
	awk -F'\t' -v c="$1" -v k="$2" '$1 == c { print $k; exit }' "$tmp/rules.tsv"
}
# room_files ROOM...: the files of those rooms that the tree has.
room_files() {
	for r in "$@"; do
		awk -v r="$r" '$1 == r { print $2 }' "$tmp/rooms"
	done | while read -r f; do
		path_of "$f"
	done
}
# path_of NAME: the file of the tree of that name (src/ or include/).
path_of() {
	for d in src include; do
		[ -f "$d/$1" ] && { echo "$d/$1"; return 0; }
	done
	return 1
}

# The tree, and its include graph: "includer included" by file name.
ls src/*.c src/*.h include/*.h 2>/dev/null >"$tmp/files"
: >"$tmp/edges"
while read -r f; do
	sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f" |
	    while read -r h; do
		echo "$(basename "$f") $(basename "$h")"
	done >>"$tmp/edges"
done <"$tmp/files"

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

# pb-c: whoever reaches profile.pb-c.h must be listed.
allowed=" $(rule pb-c 4) "
while read -r f; do
	b=$(basename "$f")
	got=$(reach "$b" profile.pb-c.h)
	if [ -z "$got" ]; then
		ok "pb-c: $f does not include profile.pb-c.h"
	else
		case $allowed in
		*" $b "*) ok "pb-c: $f may include profile.pb-c.h" ;;
		*) not_ok "pb-c: $f includes profile.pb-c.h (${got#* }), and only${allowed% } may" ;;
		esac
	fi
done <"$tmp/files"

# decoder-headers: the rooms named reach none of the headers listed.
forbid=$(rule decoder-headers 4)
# shellcheck disable=SC2046
for f in $(room_files $(rule decoder-headers 3)); do
	# shellcheck disable=SC2086
	got=$(reach "$(basename "$f")" $forbid)
	if [ -z "$got" ]; then
		ok "decoder-headers: $f"
	else
		echo "$got" | while read -r h chain; do
			echo "FAIL decoder-headers: $f includes $h ($chain)"
		done
		fail=$((fail + $(echo "$got" | wc -l)))
	fi
done

# stats-pure: profdiff's headers listed, and C11's headers but stdio.h.
c11="assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h
limits.h locale.h math.h setjmp.h signal.h stdalign.h stdarg.h stdatomic.h
stdbool.h stddef.h stdint.h stdlib.h stdnoreturn.h string.h tgmath.h
threads.h time.h uchar.h wchar.h wctype.h"
mine=" $(rule stats-pure 4) "
for f in $(rule stats-pure 3); do
	p=$(path_of "$f") || { skip=$((skip + 1)); echo "# skip stats-pure: $f is not in the tree"; continue; }
	bad=""
	for h in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$p"); do
		case $mine in *" $h "*) ;; *) bad="$bad \"$h\"" ;; esac
	done
	for h in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*<\([^>]*\)>.*/\1/p' "$p"); do
		case " $(echo $c11) " in *" $h "*) ;; *) bad="$bad <$h>" ;; esac
	done
	if [ -z "$bad" ]; then
		ok "stats-pure: $p"
	else
		not_ok "stats-pure: $p includes$bad; it may include only${mine% } and C11's headers without I/O"
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
for f in src/*.c src/*.h; do
	[ -f "$f" ] || continue
	n=$(wc -l <"$f")
	if [ "$n" -gt "$limit" ]; then
		not_ok "file-lines: $f has $n lines, over $limit"
	else
		ok "file-lines: $f"
	fi
done

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
limit=$(rule function-lines 4)
for f in src/*.c; do
	[ -f "$f" ] || continue
	funcs "$f" "$limit" function-lines >"$tmp/funcs"
	n=$(tail -1 "$tmp/funcs" | cut -d' ' -f1)
	sed '$d' "$tmp/funcs"
	if [ "$n" -eq 0 ]; then ok "function-lines: $f"; else fail=$((fail + n)); fi
done
limit=$(rule room-function-lines 4)
# shellcheck disable=SC2046
for f in $(room_files $(rule room-function-lines 3)); do
	case $f in *.c) ;; *) continue ;; esac
	funcs "$f" "$limit" room-function-lines >"$tmp/funcs"
	n=$(tail -1 "$tmp/funcs" | cut -d' ' -f1)
	sed '$d' "$tmp/funcs"
	if [ "$n" -eq 0 ]; then ok "room-function-lines: $f"; else fail=$((fail + n)); fi
done

# every-file: each file of the tree in exactly one room; the page's
# files the tree does not have are skipped, and said.
while read -r f; do
	b=$(basename "$f")
	rooms=$(awk -v b="$b" '$2 == b { printf " %s", $1 }' "$tmp/rooms")
	case $rooms in
	"") not_ok "every-file: $f is in no room of $doc" ;;
	" "*" "*) not_ok "every-file: $f is in more than one room of $doc:$rooms" ;;
	*) ok "every-file: $f is in$rooms" ;;
	esac
done <"$tmp/files"
cut -d' ' -f2 "$tmp/rooms" | while read -r b; do
	path_of "$b" >/dev/null || echo "$b"
done >"$tmp/absent"
while read -r b; do
	skip=$((skip + 1))
	echo "# skip every-file: $b is in $doc but not in the tree"
done <"$tmp/absent"

echo "boundaries: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
