#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The results store on a real PostgreSQL server (Debian's postgresql-15)
# started here on loopback in a temporary folder: the same schema and
# migrations as SQLite, idempotent ingest, 8 concurrent ingests and 3
# concurrent runs into one new database, export, history and baselines
# giving what the SQLite store gives for the same results. Skips (77) only
# when the server binaries are not installed.
source "$(dirname "$0")/lib.sh"

pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$pgbin" ] || [ ! -x "$pgbin/initdb" ] || [ ! -x "$pgbin/pg_ctl" ]; then
  echo "SKIP: PostgreSQL server binaries not installed (apt-get install postgresql)"
  exit 77
fi
command -v psql >/dev/null || { echo "SKIP: psql not installed"; exit 77; }

# The server refuses to run as root: as root it runs as the postgres user.
as_pg=()
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || { echo "SKIP: running as root and no postgres user"; exit 77; }
  as_pg=(runuser -u postgres --)
  chown postgres "$T"
fi
pgdir="$T/pg"
"${as_pg[@]}" mkdir "$pgdir"
"${as_pg[@]}" "$pgbin/initdb" -D "$pgdir/data" -A trust -U bhost --no-sync -E UTF8 \
  >"$T/initdb.log" 2>&1 || fail "initdb: $(cat "$T/initdb.log")"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"${as_pg[@]}" "$pgbin/pg_ctl" -D "$pgdir/data" -l "$pgdir/log" -w -t 60 start \
  -o "-p $port -k $pgdir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50" \
  >"$T/pgctl.log" 2>&1 || fail "pg_ctl start: $(cat "$T/pgctl.log" "$pgdir/log" 2>/dev/null)"
cleanup_hooks+=("${as_pg[*]} $pgbin/pg_ctl -D $pgdir/data -m immediate -w stop >/dev/null 2>&1")
ok "PostgreSQL $("$pgbin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"

url() { echo "postgresql://bhost@127.0.0.1:$port/$1"; }
psq() { psql -X -A -t -q -h 127.0.0.1 -p "$port" -U bhost -d "$1" -c "$2"; }
psq postgres "CREATE DATABASE one" && psq postgres "CREATE DATABASE many"

make_template
"$GEN_RESULTS" --template "$T/template.json" --out "$T/gen" --files 30 --cases 7 --seed 3

# ---- the same schema, migrations and idempotent ingest -------------------
bh store ingest "$T/gen" --store "$(url one)"
assert_eq "ingest into PostgreSQL exits 0" 0 "$code"
assert_has "30 new runs" "$out" "30 new runs, 0 already stored, 0 skipped"
bh store ingest "$T/gen" --store "$(url one)"
assert_has "second ingest adds nothing" "$out" "0 new runs, 30 already stored"
assert_eq "schema version" 1 "$(psq one 'SELECT MAX(version) FROM schema_version')"
assert_eq "30 runs" 30 "$(psq one 'SELECT COUNT(*) FROM runs')"
assert_eq "210 cases" 210 "$(psq one 'SELECT COUNT(*) FROM cases')"
bh store ingest "$T/gen" --store "$T/one.db"
for t in runs series cases samples summaries verdicts; do
  assert_eq "$t: PostgreSQL and SQLite hold the same rows" \
    "$(sqlite3 "$T/one.db" "SELECT COUNT(*) FROM $t")" "$(psq one "SELECT COUNT(*) FROM $t")"
done
bh store info --store "$(url one)" --json
assert_eq "info names the engine" postgresql \
  "$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["engine"])')"
bh store info --store "postgresql://bhost:s3cret@127.0.0.1:1/none"
assert_eq "an unreachable server: exit 4" 4 "$code"
case "$err" in *s3cret*) fail "the password was printed: $err" ;; esac
ok "the password is not printed"

# ---- export, history and baselines equal SQLite's -----------------------
for id in 1 17 30; do
  bh store export "$id" --store "$(url one)" --out "$T/pg$id.json"
  bh store export "$id" --store "$T/one.db" --out "$T/sq$id.json"
  cmp -s "$T/pg$id.json" "$T/sq$id.json" || fail "run $id exports differ between the engines"
done
ok "PostgreSQL and SQLite export the same documents"
bh history --store "$(url one)" --json --trend 5
sed 's#"root":.*##' <<<"$out" >"$T/hpg.json"
bh history --store "$T/one.db" --json --trend 5
sed 's#"root":.*##' <<<"$out" >"$T/hsq.json"
sed -i 's#"file":.*##' "$T/hpg.json" "$T/hsq.json"
cmp -s "$T/hpg.json" "$T/hsq.json" || fail "history differs: $(diff "$T/hpg.json" "$T/hsq.json" | head)"
ok "PostgreSQL and SQLite give the same history and trends"
bh run "$T/store.yaml" --results-dir "$T/res" --store "$(url one)" --baseline store:latest-main \
  --no-confirm --quiet
assert_eq "run --baseline store:latest-main from PostgreSQL exits 0" 0 "$code"
assert_has "the run is stored in PostgreSQL" "$err" "store: $(url one) run 31"
assert_eq "its comparison names run 30" 30 \
  "$(psq one "SELECT substring(baseline from ' run ([0-9]+) ') FROM runs WHERE id = 31")"

# ---- concurrent writers into one new database ---------------------------
new_total=$(concurrent_writers "$(url many)")
ok "8 concurrent ingests and 3 concurrent runs exit 0"
assert_eq "no result lost or duplicated" 33 "$(psq many 'SELECT COUNT(*) FROM runs')"
assert_eq "cases of 30 + 3 runs" $((30 * 7 + 3 * 2)) "$(psq many 'SELECT COUNT(*) FROM cases')"
assert_eq "series not duplicated" 9 "$(psq many 'SELECT COUNT(*) FROM series')"
assert_eq "one schema_version row" 1 "$(psq many 'SELECT COUNT(*) FROM schema_version')"
assert_eq "the ingests stored each file once between them" 30 "$new_total"
