#!/usr/bin/env python3
"""svgxml: the SVGs profdiff writes are XML, and their text fits them.

    python3 tests/tools/svgxml.py [-q] file.svg ...

For each file: it parses as XML (xml.etree, which refuses an unescaped
"<" or "&" in text or an attribute, as browsers do), its root is an
<svg>, and no line of text outside the frames runs past the image's
edges: a flame graph's header (the title centered in 15px bold
monospace, the other lines in 11px monospace from their x), and a
series chart's title (12px sans-serif, counted at 7px a character).
What a <title> holds is a tooltip, not drawn, and is not measured.

One line per file, "ok FILE" or "not ok FILE: why" (-q: the failures
only); exit 1 if any file fails.
"""
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
CHAR_W = 6.6        # 11px monospace (report_flame.c)
TITLE_W = 9.0       # 15px bold monospace
SANS_W = 7.0        # 12px sans-serif, generously


def visible(el):
    """The text an element draws: its own, without its <title>'s."""
    s = el.text or ""
    for ch in el:
        if ch.tag != NS + "title":
            s += visible(ch)
        s += ch.tail or ""
    return s


def check_flame(root, width):
    for el in root:
        if el.tag != NS + "text":
            continue
        s = visible(el)
        x = float(el.get("x", "0"))
        if el.get("class") == "h":
            half = len(s) * TITLE_W / 2
            if x - half < 0 or x + half > width:
                return "title runs past the edge: %r" % s
        elif "text-anchor:end" in (el.get("style") or ""):
            if x - len(s) * CHAR_W < 0:
                return "line runs past the left edge: %r" % s
        elif x + len(s) * CHAR_W > width:
            return "line runs past the right edge (%.0f px): %r" % (
                x + len(s) * CHAR_W, s)
    return None


def check_series(root, width):
    for g in root.iter(NS + "g"):
        if not (g.get("class") or "").startswith("chart"):
            continue
        for el in g.iter(NS + "text"):
            if el.get("class") == "tick":
                continue
            s = visible(el)
            x = float(el.get("x", "0"))
            if x + len(s) * SANS_W > width:
                return "chart title runs past the edge: %r" % s
    return None


def check(path):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        return "not well-formed XML: %s" % e
    except OSError as e:
        return str(e)
    if root.tag != NS + "svg":
        return "the root is %s, not an svg" % root.tag
    width = float(root.get("width", "0"))
    if root.find(NS + "script") is not None:
        return check_flame(root, width)
    return check_series(root, width)


def main(argv):
    quiet = len(argv) > 1 and argv[1] == "-q"
    bad = 0
    for path in argv[2 if quiet else 1:]:
        why = check(path)
        if why is not None:
            bad += 1
            print("not ok %s: %s" % (path, why))
        elif not quiet:
            print("ok %s" % path)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
