#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A local SMTP sink for the --notify email: tests (RFC 5321, no TLS, no
AUTH): records each message delivered as one JSON line in LOG (the
envelope's MAIL FROM and RCPT TO, the message with dot-stuffing undone)
and refuses a recipient whose address starts with "reject" (550). Writes
its port to PORT_FILE once listening; stops by itself after --lifetime
seconds.

    smtp_sink.py LOG PORT_FILE [--lifetime 300]
"""
import json
import re
import socketserver
import threading

import loopback


def main():
    a = loopback.parse_args()
    lock = threading.Lock()

    class Session(socketserver.StreamRequestHandler):
        def say(self, line):
            self.wfile.write((line + "\r\n").encode())
            self.wfile.flush()

        def data(self):
            lines = []
            while True:
                raw = self.rfile.readline()
                if not raw:
                    return None
                line = raw.decode("utf-8", "replace")
                if line in (".\r\n", ".\n"):
                    return "".join(lines)
                lines.append(line[1:] if line.startswith(".") else line)

        def handle(self):
            mail_from, rcpt, commands = None, [], []
            self.say("220 sink.test ESMTP ready")
            while True:
                raw = self.rfile.readline()
                if not raw:
                    return
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                verb = line[:4].upper()
                commands.append(verb)
                if verb == "EHLO":
                    self.say("250-sink.test")
                    self.say("250-8BITMIME")
                    self.say("250 SIZE 10000000")
                elif verb == "HELO":
                    self.say("250 sink.test")
                elif verb == "MAIL":
                    m = re.match(r"MAIL FROM:\s*<([^>]*)>", line, re.I)
                    if not m:
                        self.say("501 syntax: MAIL FROM:<address>")
                        continue
                    mail_from, rcpt = m.group(1), []
                    self.say("250 OK")
                elif verb == "RCPT":
                    m = re.match(r"RCPT TO:\s*<([^>]*)>", line, re.I)
                    if not m or mail_from is None:
                        self.say("503 bad sequence or syntax")
                    elif m.group(1).startswith("reject"):
                        self.say("550 no such user here")
                    else:
                        rcpt.append(m.group(1))
                        self.say("250 OK")
                elif verb == "DATA":
                    if not rcpt:
                        self.say("503 no valid recipients")
                        continue
                    self.say("354 end with <CRLF>.<CRLF>")
                    msg = self.data()
                    if msg is None:
                        return
                    with lock, open(a.log, "a") as f:
                        f.write(json.dumps({"mail_from": mail_from, "rcpt_to": rcpt,
                                            "commands": commands, "data": msg}) + "\n")
                    self.say("250 OK queued")
                elif verb == "RSET":
                    mail_from, rcpt = None, []
                    self.say("250 OK")
                elif verb == "NOOP":
                    self.say("250 OK")
                elif verb == "QUIT":
                    self.say("221 bye")
                    return
                else:
                    self.say("502 command not implemented")

    class Server(socketserver.ThreadingTCPServer):
        daemon_threads = True
        allow_reuse_address = True

    loopback.serve(Server(("127.0.0.1", 0), Session), a)


if __name__ == "__main__":
    main()
