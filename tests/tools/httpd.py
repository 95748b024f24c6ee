#!/usr/bin/python3
# A small HTTP server for the URL tests (tests/cli/url-*.cmd), run by
# tests/tools/withserver.sh with Debian's /usr/bin/python3; never by
# hand on a fixed port, never beyond 127.0.0.1.
#
#   httpd.py ROOT PORTFILE LOGFILE [LIFETIME]
#
# It listens on an ephemeral port of 127.0.0.1 and writes "PORT DEAD"
# to PORTFILE once it does: DEAD is a port it bound and closed just
# before, for a test of a refused connection.  Each request's method,
# path and query go to LOGFILE, a line each, so that a test can see the
# seconds= it was sent.  It answers:
#
#   /status/CODE[?body=TEXT]   status CODE with TEXT as the body (by
#                              default two lines: the first is what
#                              profdiff must report), of Content-Type
#                              type= (default text/plain)
#   /redirect?to=PATH          302 to PATH, with a body of its own
#   /loop                      302 to itself
#   /hops?n=N                  302 to /hops?n=N+1, without end
#   /private/PATH              ROOT/PATH, as /PATH, to a client that
#                              sends user "user" and password "secret"
#                              (Basic); else 401.  The log line says
#                              " as user" when it did
#   /endless                   zeros without end, chunked, until the
#                              client goes (a test that it stops at
#                              its limit)
#   /debug/pprof/PATH          the file ROOT/PATH, as a net/http/pprof
#                              endpoint would answer with a profile
#   /PATH                      the file ROOT/PATH; 404 if there is none
#
# and, on any of them, delay=S waits S seconds first, and chunked=1
# sends the body without a Content-Length.  It answers requests on
# threads of their own, so two can be slow at once.  It exits after
# LIFETIME seconds (default 120) or when its parent does, so that no
# test leaves it running.
import base64
import http.server
import os
import socket
import sys
import threading
import time
import urllib.parse

ROOT = os.path.abspath(sys.argv[1])
PORTFILE, LOGFILE = sys.argv[2], sys.argv[3]
LIFETIME = float(sys.argv[4]) if len(sys.argv) > 4 else 120.0
DEFAULT_BODY = "no such profile: try /debug/pprof/\nsecond line\n"
log_lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def send_body(self, code, body, ctype, chunked):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not chunked:
            self.wfile.write(body)
            return
        for i in range(0, len(body), 4096):
            part = body[i:i + 4096]
            self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
        self.wfile.write(b"0\r\n\r\n")

    def send_redirect(self, to):
        body = b"Found: follow the Location\n"
        self.send_response(302)
        self.send_header("Location", to)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        authorized = (self.headers.get("Authorization", "") ==
                      "Basic " + base64.b64encode(b"user:secret").decode())
        with log_lock, open(LOGFILE, "a") as f:
            f.write("%s %s%s\n" % (self.command, self.path,
                                   " as user" if authorized else ""))
        query = urllib.parse.parse_qs(url.query, keep_blank_values=True)
        if "delay" in query:
            time.sleep(float(query["delay"][0]))
        chunked = query.get("chunked", ["0"])[0] == "1"
        path = urllib.parse.unquote(url.path)
        if path.startswith("/status/"):
            body = query.get("body", [DEFAULT_BODY])[0].encode()
            ctype = query.get("type", ["text/plain; charset=utf-8"])[0]
            self.send_body(int(path[len("/status/"):]), body, ctype,
                           chunked)
            return
        if path == "/redirect":
            self.send_redirect(query["to"][0])
            return
        if path == "/loop":
            self.send_redirect("/loop")
            return
        if path == "/hops":
            self.send_redirect("/hops?n=%d" % (int(query["n"][0]) + 1))
            return
        if path.startswith("/private/"):
            if not authorized:
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="pprof"')
                body = b"Unauthorized: user and password, please\n"
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            path = path[len("/private"):]
        if path == "/endless":
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            part = bytes(65536)
            try:
                while True:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
            except OSError:
                self.close_connection = True
            return
        if path.startswith("/debug/pprof/"):
            path = path[len("/debug/pprof"):]
        file = os.path.normpath(os.path.join(ROOT, path.lstrip("/")))
        if (not file.startswith(os.path.abspath(ROOT) + os.sep) or
                not os.path.isfile(file)):
            self.send_body(404, b"404 page not found\n",
                           "text/plain; charset=utf-8", chunked)
            return
        with open(file, "rb") as f:
            body = f.read()
        self.send_body(200, body, "application/octet-stream", chunked)


def watchdog(parent):
    start = time.monotonic()
    while time.monotonic() - start < LIFETIME and os.getppid() == parent:
        time.sleep(0.2)
    os._exit(3)


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    dead = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    dead.bind(("127.0.0.1", 0))
    dead_port = dead.getsockname()[1]
    dead.close()
    threading.Thread(target=watchdog, args=(os.getppid(),),
                     daemon=True).start()
    tmp = PORTFILE + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d %d\n" % (server.server_address[1], dead_port))
    os.rename(tmp, PORTFILE)
    server.serve_forever()


main()
