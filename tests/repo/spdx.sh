#!/bin/sh
# SPDX-License-Identifier: MIT
# Every tracked source, build and script file carries an SPDX licence line
# (SPDX-License-Identifier: MIT, the licence of LICENSE and meson.build) in
# its first three lines. Exit 77 (skipped) outside a git checkout.
#   spdx.sh SOURCE_ROOT
set -eu
cd "$1"
git rev-parse --git-dir >/dev/null 2>&1 || { echo "spdx: not a git checkout"; exit 77; }
missing=0
for f in $(git ls-files '*.c' '*.h' '*.cc' '*.cpp' '*.hpp' '*.cu' '*.hip' '*.cl' '*.comp' \
                         '*.glsl' '*.sh' '*.py' '*.js' '*.map' 'meson.build' '*/meson.build' \
                         'meson_options.txt' '*/Makefile' .ci/run); do
  [ -f "$f" ] || continue
  if ! head -n 3 "$f" | grep -q 'SPDX-License-Identifier: MIT'; then
    echo "spdx: $f has no 'SPDX-License-Identifier: MIT' line in its first 3 lines"
    missing=$((missing + 1))
  fi
done
grep -q '^MIT License' LICENSE || { echo "spdx: LICENSE is not the MIT licence"; exit 1; }
grep -q "license: 'MIT'" meson.build || { echo "spdx: meson.build does not declare MIT"; exit 1; }
[ "$missing" -eq 0 ] || exit 1
echo "spdx: every source file has its licence line"
