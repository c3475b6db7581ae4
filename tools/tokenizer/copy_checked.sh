#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Puts SRC into the cache as DEST when its sha256 is EXPECTED (fetch.sh).
#
#   tools/tokenizer/copy_checked.sh SRC DEST EXPECTED_SHA256
#
# SRC with another sha256 is refused with the file, the expected and the
# actual hash; a good DEST already cached is kept (exit 0), else exit 1.
# A good SRC reaches DEST through a temporary file beside it, checked again
# and renamed, so the cache never holds a bad or partial copy; a damaged
# DEST is replaced from a good SRC.
# Exit status: 0 DEST is good; 1 refused and nothing good cached; 2 usage.
set -euo pipefail

[ $# -eq 3 ] || { echo "usage: copy_checked.sh SRC DEST EXPECTED_SHA256" >&2; exit 2; }
src=$1 dest=$2 want=$3
sum() { sha256sum "$1" | cut -d' ' -f1; }
dest_good() { [ -f "$dest" ] && [ "$(sum "$dest")" = "$want" ]; }

if [ -f "$src" ]; then
    got=$(sum "$src")
    if [ "$got" != "$want" ]; then
        if dest_good; then
            echo "fetch: $src: sha256 $got, expected $want: refused; keeping the cached $dest" >&2
            exit 0
        fi
        echo "fetch: $src: sha256 $got, expected $want: refused" >&2
        exit 1
    fi
fi
dest_good && exit 0
[ -f "$src" ] || { echo "fetch: $src: not found (expected sha256 $want)" >&2; exit 1; }
[ ! -f "$dest" ] || echo "fetch: $dest: sha256 $(sum "$dest"), expected $want: damaged, replaced from $src" >&2
tmp=$(mktemp "$dest.tmp.XXXXXX")
trap 'rm -f "$tmp"' EXIT
cp "$src" "$tmp"
got=$(sum "$tmp")
[ "$got" = "$want" ] || { echo "fetch: $src: sha256 $got, expected $want: refused" >&2; exit 1; }
mv "$tmp" "$dest"
trap - EXIT
