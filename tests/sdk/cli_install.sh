#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What `meson install` puts in place for shells and man (host/cli/share):
# installs the build's "cli" files into a temporary DESTDIR (no rebuild,
# nothing else installed), then checks that the bash completion, the zsh
# completion and bhost.1 land under share/ where bash-completion, zsh and
# man look, that they are what the installed-from bhost prints, that the
# scripts parse, and that the page renders without a warning.
#
# usage: cli_install.sh BUILD_ROOT BHOST
# environment: MESON (default: meson)
set -euo pipefail

build=$1
bhost=$2
MESON=${MESON:-meson}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bhost-cli-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

fail() {
    echo "cli_install: FAIL: $*" >&2
    exit 1
}

if ! "$MESON" install -C "$build" --no-rebuild --tags cli --destdir "$tmp/root" \
    >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log" >&2
    fail "meson install --tags cli failed"
fi
prefix=$("$MESON" introspect "$build" --buildoptions |
    python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"][0])')
share=$tmp/root$prefix/share
bash_file=$share/bash-completion/completions/bhost
zsh_file=$share/zsh/site-functions/_bhost
man_file=$share/man/man1/bhost.1
for f in "$bash_file" "$zsh_file" "$man_file"; do
    [ -s "$f" ] || fail "$f was not installed (installed: $(cd "$tmp/root" && find . -type f | tr '\n' ' '))"
done
extra=$(cd "$tmp/root" && find . -type f | grep -v -e '/bash-completion/completions/bhost$' \
    -e '/zsh/site-functions/_bhost$' -e '/man/man1/bhost.1$' || true)
[ -z "$extra" ] || fail "--tags cli installed more than the three files: $extra"

cmp -s "$bash_file" <("$bhost" completion bash) || fail "installed bash completion differs from bhost completion bash"
cmp -s "$zsh_file" <("$bhost" completion zsh) || fail "installed zsh completion differs from bhost completion zsh"
cmp -s "$man_file" <("$bhost" __man) || fail "installed bhost.1 differs from bhost __man"

bash -n "$bash_file" || fail "the bash completion does not parse"
# shellcheck disable=SC1090
(source "$bash_file" && complete -p bhost | grep -q _bhost) ||
    fail "sourcing the bash completion does not register _bhost"
if command -v zsh >/dev/null; then
    zsh -n "$zsh_file" || fail "the zsh completion does not parse"
fi

# The page names every visible command of bhost --help and its options.
for cmd in $("$bhost" --help | awk '/^commands:/ {on = 1; next} /^$/ {on = 0} on && /^  [a-z]/ {print $1}'); do
    pat=${cmd//-/'\\-'} # roff writes check-plugin as check\-plugin
    grep -q "^\.SS \"$pat" "$man_file" || fail "bhost.1 has no section for command $cmd"
done
grep -q -- '\\-\\-sample\\-time' "$man_file" || fail "bhost.1 lacks run's --sample-time"

if command -v groff >/dev/null; then
    warn=$(groff -man -Tutf8 -ww -z "$man_file" 2>&1) || fail "groff failed on bhost.1: $warn"
    [ -z "$warn" ] || fail "groff warns on bhost.1: $warn"
fi
if command -v man >/dev/null; then
    page=$(MANWIDTH=80 MANPAGER=cat man -l "$man_file" 2>"$tmp/man.err") ||
        fail "man -l failed: $(cat "$tmp/man.err")"
    grep -q '^NAME' <<<"$page" || fail "man -l shows no NAME section"
    grep -q 'bhost run CONFIG' <<<"$page" || fail "man -l does not show run's usage"
    grep -q 'EXIT STATUS' <<<"$page" || fail "man -l shows no EXIT STATUS"
else
    # no man here: the page must at least be well-formed roff, a .TH
    # first and only the requests this generator writes
    head -n 1 "$man_file" | grep -q '^\.TH BHOST 1 ' || fail "bhost.1 does not start with .TH"
    bad=$(grep -n '^\.' "$man_file" | grep -v -E '^[0-9]+:\.(TH|SH|SS|PP|RS|RE|nf|fi|TP|B|I|BR|RB|RI|IR|br)( |$)' || true)
    [ -z "$bad" ] || fail "bhost.1 has unknown requests: $bad"
fi
echo "cli_install: ok: $bash_file, $zsh_file, $man_file"
