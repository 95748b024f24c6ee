#!/bin/sh
# Install what profdiff needs on Debian 12, and nothing that is there
# already.  "sh tests/setup.sh" installs the build dependencies;
# "sh tests/setup.sh test" adds what the test suite uses.  As root it runs
# apt-get; otherwise it prints the exact command to run and fails.
set -eu

pkgs="make gcc pkg-config libprotobuf-c-dev protobuf-c-compiler zlib1g-dev libbsd-dev libisal-dev libcurl4-openssl-dev libjson-c-dev"
if [ "${1:-}" = test ]; then
	pkgs="$pkgs jq mandoc valgrind libxml2-utils python3"
	# perf reads perf.data for profdiff (a child process, input/perfdata.c);
	# the cases that need it are skipped, with a message, without it.
	pkgs="$pkgs linux-perf"
fi
# Symbolization (src/symbol/): elfutils' libdw reads ELF and DWARF,
# libiberty's demangler names C++ and Rust functions.
pkgs="$pkgs libdw-dev libiberty-dev"

missing=""
for p in $pkgs; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
	    grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "profdiff needs these Debian packages:$missing" >&2
	echo "run: sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "setup: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends $missing >&2
