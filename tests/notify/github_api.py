#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A fake GitHub REST API on loopback for the --notify github: tests.

Keeps pull-request comments and issues in memory, checks every request's
shape (Authorization: Bearer TOKEN, Accept: application/vnd.github+json,
the API version header, a JSON body with the fields GitHub requires) and
answers as GitHub does. Each request is one JSON line in LOG (method,
path, query, the headers that matter, the body); after each change the
whole state is written to STATE. Paths starting with /fail500 answer 500,
those starting with /stall answer after 15 s (past bhost's 10 s timeout);
a wrong token answers 401 {"message": "Bad credentials"}. Writes its port
to PORT_FILE once listening; stops by itself after --lifetime seconds.

    github_api.py LOG STATE PORT_FILE --token T [--seed-comments N] [--lifetime S]

--seed-comments N puts N comments of someone else on every pull request
first (so bhost's comment is found on a later page), and one open pull
request labelled bhost-regression whose body holds every marker (bhost
must never take it for its issue).
"""
import http.server
import json
import os
import threading
import time
import urllib.parse

import loopback


def main():
    a = loopback.parse_args(["state"], [("--token", {"required": True}),
                                        ("--seed-comments", {"type": int, "default": 0})])
    lock = threading.Lock()
    st = {"next_id": 4000000000, "comments": {}, "issues": []}
    if a.seed_comments:
        st["issues"].append({"number": 900, "title": "a pull request", "state": "open",
                             "labels": [{"name": "bhost-regression"}],
                             "pull_request": {"url": "x"},
                             "body": "<!-- bhost:storetest -->", "comments": []})

    def save():
        with open(a.state + ".tmp", "w") as f:
            json.dump(st, f)
        os.rename(a.state + ".tmp", a.state)

    def pr_comments(repo, pr):
        key = "%s#%s" % (repo, pr)
        if key not in st["comments"]:
            st["comments"][key] = [
                {"id": 1000 + i, "body": "someone else's comment %d" % i, "user": {"login": "x"}}
                for i in range(a.seed_comments)]
        return st["comments"][key]

    class Api(http.server.BaseHTTPRequestHandler):
        def answer(self, code, obj):
            data = json.dumps(obj).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def handle_any(self, method):
            n = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(n).decode("utf-8", "replace") if n else ""
            url = urllib.parse.urlsplit(self.path)
            query = dict(urllib.parse.parse_qsl(url.query))
            rec = {"method": method, "path": url.path, "query": query,
                   "authorization": self.headers.get("Authorization"),
                   "accept": self.headers.get("Accept"),
                   "api_version": self.headers.get("X-GitHub-Api-Version"),
                   "content_type": self.headers.get("Content-Type"),
                   "user_agent": self.headers.get("User-Agent"), "body": raw}
            with lock:
                with open(a.log, "a") as f:
                    f.write(json.dumps(rec) + "\n")
                code, obj = self.route(method, url.path, query, raw)
                save()
            self.answer(code, obj)

        def route(self, method, path, query, raw):
            if path.startswith("/stall"):
                time.sleep(15)
                return 200, []
            if path.startswith("/fail500"):
                return 500, {"message": "Server Error"}
            if self.headers.get("Authorization") != "Bearer " + a.token:
                return 401, {"message": "Bad credentials"}
            if self.headers.get("Accept") != "application/vnd.github+json":
                return 415, {"message": "bad Accept header"}
            if not self.headers.get("User-Agent"):
                return 403, {"message": "a User-Agent is required"}
            body = None
            if method in ("POST", "PATCH"):
                if self.headers.get("Content-Type") != "application/json":
                    return 415, {"message": "expected application/json"}
                try:
                    body = json.loads(raw)
                except ValueError:
                    return 400, {"message": "Problems parsing JSON"}
                if not isinstance(body.get("body"), str) or not body["body"]:
                    return 422, {"message": "body is missing"}
            p = path.strip("/").split("/")
            if len(p) < 3 or p[0] != "repos":
                return 404, {"message": "Not Found"}
            repo, rest = p[1] + "/" + p[2], p[3:]
            per_page = int(query.get("per_page", "30"))
            page = int(query.get("page", "1"))

            def paged(items):
                return items[(page - 1) * per_page:page * per_page]

            if rest[:1] == ["issues"] and len(rest) == 3 and rest[2] == "comments":
                num = rest[1]
                issue = [i for i in st["issues"] if str(i["number"]) == num]
                if method == "GET":
                    return 200, paged(pr_comments(repo, num))
                if method == "POST":
                    c = {"id": st["next_id"], "body": body["body"], "user": {"login": "bhost"}}
                    st["next_id"] += 1
                    if issue:
                        issue[0]["comments"].append(c)
                    else:
                        pr_comments(repo, num).append(c)
                    return 201, c
            if rest[:2] == ["issues", "comments"] and len(rest) == 3 and method == "PATCH":
                for cs in st["comments"].values():
                    for c in cs:
                        if str(c["id"]) == rest[2]:
                            c["body"] = body["body"]
                            c["edits"] = c.get("edits", 0) + 1
                            return 200, c
                return 404, {"message": "Not Found"}
            if rest == ["issues"] and method == "GET":
                want = set(query.get("labels", "").split(",")) - {""}
                items = [i for i in st["issues"]
                         if i["state"] == query.get("state", "open")
                         and want <= {lb["name"] for lb in i["labels"]}]
                return 200, paged(items)
            if rest == ["issues"] and method == "POST":
                if not isinstance(body.get("title"), str) or not body["title"]:
                    return 422, {"message": "title is missing"}
                i = {"number": 100 + len(st["issues"]), "title": body["title"],
                     "body": body["body"], "state": "open",
                     "labels": [{"name": n} for n in body.get("labels", [])], "comments": []}
                st["issues"].append(i)
                return 201, i
            return 404, {"message": "Not Found"}

        def do_GET(self):
            self.handle_any("GET")

        def do_POST(self):
            self.handle_any("POST")

        def do_PATCH(self):
            self.handle_any("PATCH")

        def log_message(self, *args):
            pass

    save()
    loopback.serve(http.server.ThreadingHTTPServer(("127.0.0.1", 0), Api), a)


if __name__ == "__main__":
    main()
