#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The host's module graph, and the rule that keeps it one-directional.

    module_graph.py SOURCE_ROOT            check: exit 1 on a back-edge
    module_graph.py SOURCE_ROOT --markdown print the graph as a table

Each folder of host/ with a meson.build is a module (host/regress/history
is the module "history"). Its layer is its place in host/meson.build's
subdir() order (history just before regress, which builds it). A module
may use only modules of lower layers: a dependency bh_X_dep in its
meson.build, or an #include "name.h" of a header that lives in another
module's folder, on a module of its own or a higher layer is a back-edge.

Exit status: 0 no back-edge; 1 back-edges (one line each); 2 the tree
could not be read.
"""
import os
import re
import sys


def modules(root):
    """The modules in layer order: [(name, folder)]."""
    host = os.path.join(root, "host")
    text = open(os.path.join(host, "meson.build"), encoding="utf-8").read()
    order = []
    for name in re.findall(r"^subdir\('([a-z_]+)'\)", text, re.M):
        if name == "regress" and os.path.isdir(os.path.join(host, "regress", "history")):
            order.append(("history", os.path.join(host, "regress", "history")))
        order.append((name, os.path.join(host, name)))
    return order


def sources(folder):
    """The .c and .h files of a module folder (not of its subfolders)."""
    return sorted(os.path.join(folder, f) for f in os.listdir(folder)
                  if f.endswith((".c", ".h")) and os.path.isfile(os.path.join(folder, f)))


def edges(root):
    """{(from, to): [why, ...]} over meson dependencies and includes."""
    mods = modules(root)
    names = {n for n, _ in mods}
    owner = {}
    for name, folder in mods:
        for f in sources(folder):
            if f.endswith(".h"):
                owner.setdefault(os.path.basename(f), name)
    found = {}
    for name, folder in mods:
        meson = open(os.path.join(folder, "meson.build"), encoding="utf-8").read()
        for dep in sorted(set(re.findall(r"\bbh_([a-z]+)_dep\b", meson))):
            if dep in names and dep != name:
                found.setdefault((name, dep), []).append("meson.build links bh_%s_dep" % dep)
        for f in sources(folder):
            for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', open(f, encoding="utf-8").read(),
                                  re.M):
                to = owner.get(os.path.basename(inc))
                if to and to != name:
                    found.setdefault((name, to), []).append(
                        "%s includes %s" % (os.path.relpath(f, root), inc))
    return mods, found


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    try:
        mods, found = edges(argv[1])
    except OSError as e:
        print("module_graph: %s" % e, file=sys.stderr)
        return 2
    layer = {n: i for i, (n, _) in enumerate(mods)}
    if "--markdown" in argv[2:]:
        print("| layer | module | uses |")
        print("|---|---|---|")
        for i, (n, _) in enumerate(mods):
            uses = sorted({t for (f, t) in found if f == n}, key=lambda m: layer[m])
            print("| %d | `%s` | %s |" % (i, n, ", ".join(uses) if uses else "(nothing)"))
        return 0
    back = [(f, t) for (f, t) in found if layer[t] >= layer[f]]
    for f, t in sorted(back):
        print("module_graph: back-edge %s -> %s (%s is layer %d, %s layer %d): %s"
              % (f, t, f, layer[f], t, layer[t], "; ".join(found[(f, t)][:3])))
    print("module_graph: %d modules, %d edges, %d back-edges"
          % (len(mods), len(found), len(back)))
    return 1 if back else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
