#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The plugin SDK as a third party meets it: install bhost into a temporary
# prefix, then build the template plugins from the INSTALLED template with
# meson and with make, against that prefix only (pkg-config pointed at it,
# no path into the source tree), check what they export and how they link,
# and run them with the INSTALLED bhost, found in the installed plugindir.
# The backend template is built the same two ways (against the installed
# static helper, bhost-backend-helper.pc), checked and run with a config
# that uses its device. Last, perform the README walkthrough literally.
#
# usage: sdk_install.sh SOURCE_ROOT
# environment: MESON, NINJA (defaults: meson, ninja); KEEP_TMP=1 keeps the
# temporary directory for inspection.
set -euo pipefail

src=$(cd "$1" && pwd)
MESON=${MESON:-meson}
NINJA=${NINJA:-ninja}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bhost-sdk.XXXXXX")
prefix=$tmp/prefix
if [ "${KEEP_TMP:-0}" = 1 ]; then
    echo "sdk: keeping $tmp"
else
    trap 'rm -rf "$tmp"' EXIT
fi
# Nothing from the environment may point the host or pkg-config elsewhere.
unset BHOST_PLUGIN_PATH
export PKG_CONFIG_PATH=

fail() {
    echo "sdk: FAIL: $*" >&2
    exit 1
}
step() {
    echo "sdk: $*"
}
# Runs a command quietly, showing its log only when it fails.
quiet() {
    local log=$1
    shift
    if ! "$@" >"$log" 2>&1; then
        tail -n 60 "$log" >&2
        fail "command failed: $* (log above)"
    fi
}

# Defined dynamic symbols of a .so, one per line, sorted.
exports() {
    nm -D --defined-only "$1" | awk 'NF >= 3 { print $3 } NF == 2 { print $2 }' | sort
}

step "install bhost into $prefix"
quiet "$tmp/setup.log" "$MESON" setup "$tmp/build" "$src" --prefix="$prefix" \
    -Dtests=disabled -Dbuildtype=debugoptimized
quiet "$tmp/build.log" "$NINJA" -C "$tmp/build"
quiet "$tmp/install.log" "$MESON" install -C "$tmp/build"

step "check the installed SDK files and bhost-plugin.pc"
pc=$(find "$prefix" -name bhost-plugin.pc -print -quit)
[ -n "$pc" ] || fail "no bhost-plugin.pc under $prefix"
export PKG_CONFIG_PATH=$(dirname "$pc")
[ "$(pkg-config --variable=pcfiledir bhost-plugin)" = "$PKG_CONFIG_PATH" ] ||
    fail "pkg-config found another bhost-plugin.pc than $pc"
cmp "$prefix/include/bhost/plugin.h" "$src/plugin-api/include/bhost/plugin.h" ||
    fail "installed include/bhost/plugin.h differs from the source header"
for h in plugin.hpp accel.h sci_kernels.h ranks.h backend_helper.h; do
    cmp "$prefix/include/bhost/$h" "$src/plugin-api/include/bhost/$h" ||
        fail "installed include/bhost/$h differs from the source header"
done
cflags=$(pkg-config --cflags bhost-plugin | xargs)
[ "$cflags" = "-I$prefix/include" ] ||
    fail "pkg-config --cflags is '$cflags', expected -I$prefix/include"
plugindir=$(pkg-config --variable=plugindir bhost-plugin)
version_script=$(pkg-config --variable=version_script bhost-plugin)
templatedir=$(pkg-config --variable=templatedir bhost-plugin)
case $plugindir in "$prefix"/*) ;; *) fail "plugindir $plugindir is outside $prefix" ;; esac
[ -f "$plugindir/selftest.so" ] ||
    fail "plugindir $plugindir (from the .pc) does not hold the installed selftest.so"
cmp "$version_script" "$src/plugin-api/plugin.map" ||
    fail "version_script $version_script is not plugin-api/plugin.map"
[ "$version_script" = "$prefix/share/bhost/plugin.map" ] ||
    fail "version_script is $version_script, expected $prefix/share/bhost/plugin.map"
diff -r "$templatedir" "$src/plugin-api/template" >/dev/null ||
    fail "templatedir $templatedir differs from plugin-api/template"
backend_templatedir=$(pkg-config --variable=backend_templatedir bhost-plugin)
diff -r "$backend_templatedir" "$src/plugin-api/template-backend" >/dev/null ||
    fail "backend_templatedir $backend_templatedir differs from plugin-api/template-backend"
# The specification, installed where the header and the templates say.
specfile=$(pkg-config --variable=specfile bhost-plugin)
[ "$specfile" = "$prefix/share/doc/bhost/plugin-api.md" ] ||
    fail "specfile is $specfile, expected $prefix/share/doc/bhost/plugin-api.md"
cmp "$specfile" "$src/plugin-api/README.md" || fail "$specfile is not plugin-api/README.md"
for f in "$prefix/include/bhost/plugin.h" "$templatedir/template.c" \
    "$backend_templatedir/backend_template.c"; do
    grep -q "share/doc/bhost/plugin-api.md" "$f" ||
        fail "$f does not name the installed specification"
done
ldflags=$(pkg-config --variable=plugin_ldflags bhost-plugin)
[ "$ldflags" = "-shared -Wl,-z,defs -Wl,--version-script=$version_script" ] ||
    fail "plugin_ldflags is '$ldflags'"
[ -f "$(pkg-config --variable=libdir bhost-backend-helper)/libbhost_backend_helper.a" ] ||
    fail "bhost-backend-helper.pc names no installed libbhost_backend_helper.a"
for v in MAJOR MINOR; do
    lc=$(echo "$v" | tr 'A-Z' 'a-z')
    want=$(sed -n "s/^#define BHOST_ABI_$v \([0-9]*\).*/\1/p" "$prefix/include/bhost/plugin.h")
    got=$(pkg-config --variable="abi_$lc" bhost-plugin)
    [ "$got" = "$want" ] || fail "abi_$lc is '$got' in the .pc, '$want' in plugin.h"
done
bhost=$prefix/bin/bhost
[ -x "$bhost" ] || fail "no installed $bhost"

step "build the installed template with meson (pkg-config only)"
cp -r "$templatedir" "$tmp/tmpl-meson"
quiet "$tmp/tmpl-setup.log" "$MESON" setup "$tmp/tmpl-meson/build" "$tmp/tmpl-meson" \
    --prefix="$prefix"
quiet "$tmp/tmpl-build.log" "$NINJA" -C "$tmp/tmpl-meson/build"
if grep -q -- "$src" "$tmp/tmpl-meson/build/compile_commands.json" \
    "$tmp/tmpl-meson/build/build.ninja"; then
    fail "the template's meson build refers to the source tree $src"
fi
grep -q -- "-Wl,-z,defs" "$tmp/tmpl-meson/build/build.ninja" ||
    fail "the template's meson build does not link with -Wl,-z,defs"
grep -q -- "--version-script=$version_script" "$tmp/tmpl-meson/build/build.ninja" ||
    fail "the template's meson build does not use $version_script"
quiet "$tmp/tmpl-install.log" "$MESON" install -C "$tmp/tmpl-meson/build"
for so in template template_cpp; do
    [ -f "$plugindir/$so.so" ] || fail "meson install did not put $so.so into $plugindir"
done

step "build the installed template with make (pkg-config only)"
cp -r "$templatedir" "$tmp/tmpl-make"
quiet "$tmp/make.log" make -C "$tmp/tmpl-make"
if grep -q -- "$src" "$tmp/make.log"; then
    fail "the template's make build refers to the source tree $src"
fi
grep -q -- "-Wl,-z,defs" "$tmp/make.log" || fail "make did not link with -Wl,-z,defs"
# -z defs must really be in force: a plugin with an undefined symbol fails.
printf '%s\n' 'extern int bh_sdk_no_such_symbol(void);' \
    'int bh_sdk_probe(void) { return bh_sdk_no_such_symbol(); }' \
    >"$tmp/tmpl-make/undef.c"
if make -C "$tmp/tmpl-make" NAME=undef undef.so >"$tmp/undef.log" 2>&1; then
    fail "a plugin with an undefined symbol linked: -Wl,-z,defs is not in effect"
fi
grep -q "undefined reference" "$tmp/undef.log" ||
    fail "the undefined-symbol probe failed for another reason: $(tail -n 3 "$tmp/undef.log")"

step "every built template exports exactly bhost_entry_v1"
for so in "$tmp/tmpl-make/template.so" "$tmp/tmpl-make/template_cpp.so" \
    "$tmp/tmpl-meson/build/template.so" "$tmp/tmpl-meson/build/template_cpp.so"; do
    got=$(exports "$so" | tr '\n' ' ')
    [ "$got" = "bhost_entry_v1 " ] || fail "$so exports '$got', expected exactly bhost_entry_v1"
done

step "installed bhost check-plugin on the built templates"
for so in "$tmp/tmpl-make/template.so" "$tmp/tmpl-make/template_cpp.so"; do
    "$bhost" check-plugin "$so" >"$tmp/check.log" 2>&1 ||
        { cat "$tmp/check.log" >&2; fail "check-plugin $so exited $?"; }
    if grep -v '^PASS' "$tmp/check.log" | grep -q -v -e '^checking ' -e ': PASS$'; then
        cat "$tmp/check.log" >&2
        fail "check-plugin $so reported something other than PASS"
    fi
done
# by name: resolved in the installed plugindir
"$bhost" check-plugin template >"$tmp/check.log" 2>&1 ||
    { cat "$tmp/check.log" >&2; fail "check-plugin template (by name) failed"; }
grep -q "^checking $plugindir/template.so" "$tmp/check.log" ||
    fail "check-plugin template did not resolve to $plugindir/template.so"

step "run the templates with the installed bhost (plugins found in plugindir)"
mkdir "$tmp/run"
cat >"$tmp/run/sdk.yaml" <<'EOF'
schema: 1
name: sdk
defaults: {warmup: 1ms, sample_time: 1ms, samples: 3, runs: 2, timeout: 30s}
suites:
  - plugin: template
    params: {n: [4096]}
  - plugin: template_cpp
    params: {n: [4096], alpha: [0.5]}
  - plugin: selftest
    include: [noop]
EOF
(cd "$tmp/run" && "$bhost" run sdk.yaml --out result.json --quiet) ||
    fail "installed bhost run exited $?"
python3 - "$tmp/run/result.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
want = {'template/dot[n=4096]', 'template_cpp/axpy[n=4096,alpha=0.5]',
        'selftest/noop'}
cases = {c['id']: c for c in doc['cases']}
if set(cases) != want:
    sys.exit('sdk: FAIL: cases %s, expected %s' % (sorted(cases), sorted(want)))
for cid, c in cases.items():
    if c['status'] != 'ok':
        sys.exit('sdk: FAIL: %s is %s' % (cid, c['status']))
    if len(c['runs']) != 2 or any(len(r.get('samples', [])) != 3 for r in c['runs']):
        sys.exit('sdk: FAIL: %s lacks samples' % cid)
    if cid != 'selftest/noop' and not c['throughput']:
        sys.exit('sdk: FAIL: %s has no throughput from flops/bytes per iter' % cid)
for r in cases['template/dot[n=4096]']['runs']:
    if '[info] dot: 4096 inputs seeded' not in r.get('log', ''):
        sys.exit('sdk: FAIL: the template\'s log() line is not in run %d\'s log: %r'
                 % (r['index'], r.get('log')))
print('sdk: 3 cases ok with samples, plugin log lines kept')
EOF

step "build the installed backend template with meson and make (pkg-config only)"
cp -r "$backend_templatedir" "$tmp/be-meson"
quiet "$tmp/be-setup.log" "$MESON" setup "$tmp/be-meson/build" "$tmp/be-meson" \
    --prefix="$prefix"
quiet "$tmp/be-build.log" "$NINJA" -C "$tmp/be-meson/build"
if grep -q -- "$src" "$tmp/be-meson/build/build.ninja"; then
    fail "the backend template's meson build refers to the source tree $src"
fi
cp -r "$backend_templatedir" "$tmp/be-make"
quiet "$tmp/be-make.log" make -C "$tmp/be-make"
grep -q -- "-Wl,-z,defs" "$tmp/be-make.log" || fail "make did not link the backend with -z defs"
for so in "$tmp/be-make/backend-template.so" "$tmp/be-meson/build/backend-template.so"; do
    got=$(exports "$so" | tr '\n' ' ')
    [ "$got" = "bhost_entry_v1 " ] || fail "$so exports '$got', expected exactly bhost_entry_v1"
    "$bhost" check-plugin "$so" >"$tmp/check.log" 2>&1 ||
        { cat "$tmp/check.log" >&2; fail "check-plugin $so exited $?"; }
    if grep -v '^PASS' "$tmp/check.log" | grep -q -v -e '^checking ' -e ': PASS$'; then
        cat "$tmp/check.log" >&2
        fail "check-plugin $so reported something other than PASS"
    fi
    grep -q "^PASS.*backend.kernel.axpy" "$tmp/check.log" ||
        fail "check-plugin $so did not check the template's axpy kernel"
done
quiet "$tmp/be-install.log" "$MESON" install -C "$tmp/be-meson/build"
[ -f "$plugindir/backend-template.so" ] || fail "meson install did not put backend-template.so"

step "run a config on the template backend's device with the installed bhost"
mkdir "$tmp/be-run"
cat >"$tmp/be-run/be.yaml" <<'EOF'
schema: 1
name: sdk-backend
defaults: {warmup: 1ms, sample_time: 1ms, samples: 3, runs: 1, timeout: 30s}
backends:
  template: {required: true}
suites:
  - plugin: selftest
    include: [device_copy]
    backends: [template]
    params: {bytes: [4096]}
  - plugin: accel
    include: [copy.h2d, kernel.axpy]
    backends: [template]
EOF
(cd "$tmp/be-run" && "$bhost" run be.yaml --out result.json --quiet) ||
    fail "installed bhost run on the template backend exited $?"
python3 - "$tmp/be-run/result.json" <<'EOF'
import json, sys
cases = json.load(open(sys.argv[1]))['cases']
bad = [(c['id'], c['status']) for c in cases if c['status'] != 'ok']
if len(cases) < 3 or bad:
    sys.exit('sdk: FAIL: template backend cases: %d, not ok: %s' % (len(cases), bad))
if not any('axpy' in c['id'] for c in cases):
    sys.exit('sdk: FAIL: no axpy case ran on the template backend')
print('sdk: %d case(s) ok on the template backend' % len(cases))
EOF

step "perform the README walkthrough literally"
mkdir "$tmp/walk"
awk '/^```sh walkthrough$/ { on = 1; next } on && /^```$/ { on = 0; n++ } on { print }
     END { if (n != 1) exit 1 }' "$src/plugin-api/README.md" >"$tmp/walk.sh" ||
    fail "plugin-api/README.md needs exactly one fenced block marked 'sh walkthrough'"
(cd "$tmp/walk" && PATH="$prefix/bin:$PATH" bash -euo pipefail "$tmp/walk.sh") \
    >"$tmp/walk.log" 2>&1 || { cat "$tmp/walk.log" >&2; fail "the walkthrough failed"; }
python3 - "$tmp/walk" <<'EOF'
import glob, json, os, sys
files = glob.glob(os.path.join(sys.argv[1], '**', 'results', '*', '*.json'),
                  recursive=True)
if len(files) != 1:
    sys.exit('sdk: FAIL: the walkthrough left %d result files' % len(files))
cases = json.load(open(files[0]))['cases']
bad = [(c['id'], c['status']) for c in cases if c['status'] != 'ok']
if not cases or bad:
    sys.exit('sdk: FAIL: walkthrough cases not ok: %s' % (bad or 'none'))
print('sdk: walkthrough ran %d case(s), all ok' % len(cases))
EOF
step "all SDK checks passed"
