# SPDX-License-Identifier: MIT
"""What the loopback servers of the --notify tests share (github_api.py,
smtp_sink.py): their command line (LOG [more positional arguments]
PORT_FILE [--lifetime S] [options]) and serving, with the port written
to PORT_FILE once listening and a stop after --lifetime seconds."""
import argparse
import os
import threading


def parse_args(positional=(), options=()):
    """LOG, then the names in positional, then PORT_FILE and --lifetime;
    options: (flag, keyword arguments of add_argument) pairs."""
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    for name in positional:
        ap.add_argument(name)
    ap.add_argument("port_file")
    ap.add_argument("--lifetime", type=float, default=300.0)
    for flag, kw in options:
        ap.add_argument(flag, **kw)
    return ap.parse_args()


def serve(srv, a):
    """Writes srv's port to a.port_file (atomically) and serves until
    a.lifetime seconds have passed."""
    with open(a.port_file + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(a.port_file + ".tmp", a.port_file)
    threading.Timer(a.lifetime, srv.shutdown).start()
    srv.serve_forever()
