#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A webhook receiver on loopback for the --notify tests: records every
request (method, path, content type, body) as one JSON line in LOG and
answers 200, or 500 for paths starting with /fail. Writes its port to
PORT_FILE once listening; stops by itself after --lifetime seconds.

    webhook.py LOG PORT_FILE [--lifetime 300]
"""
import argparse
import http.server
import json
import threading


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("port_file")
    ap.add_argument("--lifetime", type=float, default=300.0)
    a = ap.parse_args()
    lock = threading.Lock()

    class Hook(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            n = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(n).decode("utf-8", "replace")
            with lock, open(a.log, "a") as f:
                f.write(json.dumps({"method": "POST", "path": self.path,
                                    "content_type": self.headers.get("Content-Type"),
                                    "body": body}) + "\n")
            code = 500 if self.path.startswith("/fail") else 200
            self.send_response(code)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            self.wfile.write(b"ok" if code == 200 else b"no")

        def log_message(self, *args):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    with open(a.port_file + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    import os
    os.rename(a.port_file + ".tmp", a.port_file)
    threading.Timer(a.lifetime, srv.shutdown).start()
    srv.serve_forever()


if __name__ == "__main__":
    main()
