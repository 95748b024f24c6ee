sh tests/tools/killmid.sh INT TERM HUP
