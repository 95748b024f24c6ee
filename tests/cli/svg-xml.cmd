sh tests/tools/svgxml.sh
