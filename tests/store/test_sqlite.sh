#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The SQLite results store end to end with the real bhost binary: run ->
# store, export round trip, idempotent ingest, malformed files, concurrent
# writers, history and trends, store: baselines, --no-store, a store that
# cannot be written.
source "$(dirname "$0")/lib.sh"

make_template

# ---- bhost run stores its result after writing the JSON file ----------
bh run "$T/store.yaml" --results-dir "$T/res" --quiet
assert_eq "run exits 0" 0 "$code"
db="$T/res/bhost.db"
assert_has "run says where it stored the result" "$err" "store: $db run 1"
assert_eq "one run stored" 1 "$(sql "$db" 'SELECT COUNT(*) FROM runs')"
assert_eq "two cases stored" 2 "$(sql "$db" 'SELECT COUNT(*) FROM cases')"
assert_eq "raw samples of each case" 2 "$(sql "$db" 'SELECT COUNT(*) FROM samples')"
assert_eq "3 runs per case" 6 "$(sql "$db" 'SELECT SUM(runs) FROM samples')"
assert_eq "5 samples per run" 30 "$(sql "$db" 'SELECT SUM(n) FROM samples')"
assert_eq "samples are queryable JSON" 15 \
  "$(sql "$db" "SELECT COUNT(*) FROM samples m, json_each(m.runs_json) r, json_each(r.value, '$.samples')
    JOIN cases c ON c.id = m.case_row JOIN series s ON s.id = c.series_id
    WHERE s.case_id = 'selftest/noop'")"
assert_eq "summaries" 2 "$(sql "$db" 'SELECT COUNT(*) FROM summaries')"
assert_eq "schema version" 1 "$(sql "$db" 'SELECT MAX(version) FROM schema_version')"
assert_eq "WAL mode" wal "$(sql "$db" 'PRAGMA journal_mode')"
result=$(ls "$T"/res/storetest/*.json)
assert_eq "source is the result file" "$result" "$(sql "$db" 'SELECT source FROM runs')"
assert_eq "config hash kept" "$(py 'd["run"]["config"]["hash"]' "$result")" \
  "$(sql "$db" 'SELECT config_hash FROM runs')"
assert_eq "fingerprint kept" "$(py 'd["system"]["fingerprint_hash"]' "$result")" \
  "$(sql "$db" 'SELECT fingerprint FROM runs')"
python3 - "$result" "$db" <<'EOF' || fail "summary figures not kept exactly"
import json, sqlite3, sys
d = json.load(open(sys.argv[1]))
rows = sqlite3.connect(sys.argv[2]).execute(
    "SELECT m.median, m.q1, m.median_ci_hi, m.mde FROM summaries m JOIN cases c"
    " ON c.id = m.case_row ORDER BY c.ord").fetchall()
want = [tuple(c["summary"][k] for k in ("median", "q1", "median_ci_hi", "mde")) for c in d["cases"]]
assert rows == want, (rows, want)
EOF
ok "summary figures kept exactly"

# ---- export gives the document back ------------------------------------
bh store export 1 --store "$db" --out "$T/export.json"
assert_eq "export exits 0" 0 "$code"
same_document "$result" "$T/export.json" || fail "export differs from the result"
ok "export equals the result (run, system, cases, runs, raw samples, summary)"
bh compare "$result" "$T/export.json" --json
assert_eq "compare result vs export exits 0" 0 "$code"
assert_eq "result vs its export: nothing regressed" 0 \
  "$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["counts"]["regressed"])')"

# ---- ingest is idempotent ---------------------------------------------
bh store ingest "$T/res" --store "$db"
assert_eq "re-ingest exits 0" 0 "$code"
assert_has "the run is already there" "$out" "0 new runs, 1 already stored"
assert_eq "still one run" 1 "$(sql "$db" 'SELECT COUNT(*) FROM runs')"

"$GEN_RESULTS" --template "$T/template.json" --out "$T/gen" --files 30 --cases 7 --seed 3
g="$T/g.db"
bh store ingest "$T/gen" --store "$g"
assert_eq "ingest of 30 files exits 0" 0 "$code"
assert_has "30 new runs" "$out" "30 new runs, 0 already stored, 0 skipped"
bh store ingest "$T/gen" "$T/gen/storetest" --store "$g"
assert_has "second ingest adds nothing" "$out" "0 new runs, 30 already stored"
assert_eq "30 runs" 30 "$(sql "$g" 'SELECT COUNT(*) FROM runs')"
assert_eq "210 cases" 210 "$(sql "$g" 'SELECT COUNT(*) FROM cases')"
assert_eq "7 series" 7 "$(sql "$g" 'SELECT COUNT(*) FROM series')"
assert_eq "git branch kept" main "$(sql "$g" 'SELECT DISTINCT git_branch FROM runs')"
for id in 1 17 30; do
  bh store export "$id" --store "$g" --out "$T/gexport.json"
  same_document "$(sql "$g" "SELECT source FROM runs WHERE id = $id")" "$T/gexport.json" ||
    fail "run $id: the export differs from the file it was ingested from"
done
ok "ingested files export equal (run, system, cases, runs, raw samples, summary)"

# ---- malformed files: one line each, skipped, exit 4 -------------------
mkdir -p "$T/bad"
cp "$(ls "$T"/gen/storetest/*.json | head -1)" "$T/bad/good.json"
head -c 200 "$T/template.json" >"$T/bad/broken.json"
echo '{"schema": "other/1"}' >"$T/bad/wrong.json"
echo '{"schema": "bhost.result/1", "run": {}, "cases": []}' >"$T/bad/noname.json"
bh store ingest "$T/bad" --store "$T/bad.db"
assert_eq "malformed files exit 4" 4 "$code"
assert_eq "one line per malformed file" 3 "$(printf '%s\n' "$err" | grep -c '^bhost: ')"
assert_has "broken.json named with its line" "$err" "$T/bad/broken.json:8: not valid JSON"
assert_has "wrong.json named" "$err" "$T/bad/wrong.json: "
assert_has "noname.json named" "$err" "$T/bad/noname.json: expected strings run.config.name"
assert_eq "the good file is stored" 1 "$(sql "$T/bad.db" 'SELECT COUNT(*) FROM runs')"

# ---- a crash mid-ingest leaves whole runs; ingesting again completes -----
# SIGKILL as soon as a first batch is committed (or after the end, on a very
# fast machine: then the checks below hold all the same).
"$GEN_RESULTS" --template "$T/template.json" --out "$T/many" --files 400 --cases 20 --seed 9
k="$T/k.db"
python3 - "$BHOST_EXE" "$T/many" "$k" <<'EOF'
import signal, sqlite3, subprocess, sys, time
p = subprocess.Popen([sys.argv[1], "store", "ingest", sys.argv[2], "--store", sys.argv[3]],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
while p.poll() is None:
    try:
        if sqlite3.connect(sys.argv[3]).execute("SELECT COUNT(*) FROM runs").fetchone()[0] > 0:
            break
    except sqlite3.Error:
        pass
    time.sleep(0.002)
p.send_signal(signal.SIGKILL)
p.wait()
EOF
assert_eq "after a crash mid-ingest the store is intact" ok "$(sql "$k" 'PRAGMA integrity_check')"
assert_eq "after a crash mid-ingest: whole runs only" 0 \
  "$(sql "$k" 'SELECT COUNT(*) FROM runs r WHERE n_cases <> (SELECT COUNT(*) FROM cases c
    WHERE c.run_id = r.id) OR (SELECT COUNT(*) FROM samples m JOIN cases c ON c.id = m.case_row
    WHERE c.run_id = r.id) <> n_cases')"
bh store ingest "$T/many" --store "$k"
assert_eq "ingesting again after the crash exits 0" 0 "$code"
assert_eq "then every file is stored once" "400 400" \
  "$(sql "$k" 'SELECT COUNT(*), COUNT(DISTINCT run_key) FROM runs' | tr '|' ' ')"
assert_eq "with all its cases" 8000 "$(sql "$k" 'SELECT COUNT(*) FROM cases')"

# ---- concurrent writers: 8 ingests and 3 runs into one new file ---------
c="$T/c.db"
new_total=$(concurrent_writers "$c")
ok "8 concurrent ingests and 3 concurrent runs exit 0"
assert_eq "no result lost or duplicated" 33 "$(sql "$c" 'SELECT COUNT(*) FROM runs')"
assert_eq "distinct keys" 33 "$(sql "$c" 'SELECT COUNT(DISTINCT run_key) FROM runs')"
assert_eq "cases of 30 + 3 runs" $((30 * 7 + 3 * 2)) "$(sql "$c" 'SELECT COUNT(*) FROM cases')"
assert_eq "series not duplicated" 9 "$(sql "$c" 'SELECT COUNT(*) FROM series')"
assert_eq "raw samples of every case" \
  $(($(sql "$g" 'SELECT COUNT(*) FROM samples') + 3 * 2)) "$(sql "$c" 'SELECT COUNT(*) FROM samples')"
assert_eq "the ingests stored each file once between them" 30 "$new_total"

# ---- history and trends from the store ---------------------------------
"$GEN_RESULTS" --template "$T/template.json" --out "$T/step" --files 40 --cases 2 --seed 5 \
  --step-case 0 --step-at 25 --step-pct 30
s="$T/s.db"
bh store ingest "$T/step" --store "$s"
bh history --store "$s" --json
assert_eq "history exits 0" 0 "$code"
echo "$out" >"$T/h.json"
assert_eq "two series" 2 "$(py 'len(d["series"])' "$T/h.json")"
assert_eq "40 points each" "40 40" "$(py '" ".join(str(x["points"]) for x in d["series"])' "$T/h.json")"
assert_eq "the +30% step found at point 25 of the stepped case" "[25]" \
  "$(py '[cp["index"] for x in d["series"] if "copy=0]" in x["case"] for cp in x["change_points"]]' "$T/h.json")"
assert_eq "no change point in the flat case" "[]" \
  "$(py '[cp["index"] for x in d["series"] if "copy=1]" in x["case"] for cp in x["change_points"]]' "$T/h.json")"
rm -rf "$T/stepcopy" && cp -r "$T/step" "$T/stepcopy"
bh history "$T/stepcopy" --json
echo "$out" >"$T/hf.json"
assert_eq "store and folder history find the same change points" \
  "$(py '[(x["case"], [c["index"] for c in x["change_points"]]) for x in d["series"]]' "$T/hf.json")" \
  "$(py '[(x["case"], [c["index"] for c in x["change_points"]]) for x in d["series"]]' "$T/h.json")"
bh history --store "$s" 'selftest/noop*' --last 10 --trend 4
assert_eq "history --last --trend exits 0" 0 "$code"
assert_has "one series selected by pattern" "$out" "1 series"
assert_has "10 newest points" "$out" "10 points"
assert_has "trend line" "$out" "last 4 of 10:"
assert_has "trend names branch@commit" "$out" "main@"
bh history --store "$s" 'selftest/spin[work=2000,copy=0]' --json
assert_eq "an exact case id (brackets and all) selects its series" 1 \
  "$(echo "$out" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["series"]))')"
bh history --store "$T/typo.db"
assert_eq "history of a store that does not exist: exit 4" 4 "$code"
assert_has "says so" "$err" "$T/typo.db: no such store"
[ ! -e "$T/typo.db" ] || fail "reading a missing store created it"
ok "reading a missing store does not create it"
bh history --store "$s" --branch nope
assert_has "no runs on another branch" "$out" "0 series"

# ---- store: baselines ----------------------------------------------------
newest=$(sql "$g" "SELECT id FROM runs ORDER BY started_at DESC LIMIT 1")
commit=$(sql "$g" "SELECT git_commit FROM runs WHERE id = $newest")
bh run "$T/store.yaml" --results-dir "$T/res2" --store "$g" --baseline store:latest-main \
  --no-confirm --json
assert_eq "run --baseline store:latest-main exits 0" 0 "$code"
echo "$out" >"$T/b.json"
assert_has "the newest main run is the baseline" "$(py 'd["comparison"]["baseline"]' "$T/b.json")" \
  "$g run $newest (main@${commit:0:12}"
bh run "$T/store.yaml" --results-dir "$T/res2" --store "$g" --baseline store:latest-nope --quiet
assert_eq "no run on the branch: exit 4" 4 "$code"
assert_has "says what was looked for" "$err" "no complete run of config 'storetest' on branch 'nope'"
bh run "$T/store.yaml" --results-dir "$T/res2" --store "$g" --baseline store:oldest --quiet
assert_eq "unknown selection: exit 4" 4 "$code"
assert_has "lists the selections" "$err" "store:latest-BRANCH"

# nearest ancestor: a repository c1 - c2 - c3 (HEAD) and a side commit
repo="$T/repo"
git init -q -b main "$repo"
gc() { git -C "$repo" -c user.email=t@example.org -c user.name=t "$@"; }
gc commit -q --allow-empty -m c1; c1=$(gc rev-parse HEAD)
gc commit -q --allow-empty -m c2; c2=$(gc rev-parse HEAD)
gc checkout -q -b side; gc commit -q --allow-empty -m side; cs=$(gc rev-parse HEAD)
gc checkout -q main; gc commit -q --allow-empty -m c3
n="$T/n.db"
"$GEN_RESULTS" --template "$T/template.json" --out "$T/na" --files 2 --cases 2 --commit "$c1" \
  --start 2026-03-01T00:00:00Z
"$GEN_RESULTS" --template "$T/template.json" --out "$T/na" --files 2 --cases 2 --commit "$c2" \
  --start 2026-03-02T00:00:00Z
"$GEN_RESULTS" --template "$T/template.json" --out "$T/na" --files 1 --cases 2 --commit "$c2" \
  --dirty --start 2026-03-03T00:00:00Z
"$GEN_RESULTS" --template "$T/template.json" --out "$T/na" --files 1 --cases 2 --commit "$cs" \
  --branch side --start 2026-03-04T00:00:00Z
bh store ingest "$T/na" --store "$n"
assert_eq "6 runs for the ancestry test" 6 "$(sql "$n" 'SELECT COUNT(*) FROM runs')"
want=$(sql "$n" "SELECT id FROM runs WHERE git_commit = '$c2' AND git_dirty = 0 ORDER BY started_at DESC LIMIT 1")
(cd "$repo" && "$BHOST_EXE" run "$T/store.yaml" --results-dir "$T/res3" --store "$n" \
  --baseline store:nearest-ancestor --no-confirm --json >"$T/na.json" 2>"$T/na.err") ||
  fail "run --baseline store:nearest-ancestor: $(cat "$T/na.err")"
assert_has "nearest clean ancestor with data is c2 (not HEAD, not the side branch, not dirty)" \
  "$(py 'd["comparison"]["baseline"]' "$T/na.json")" "$n run $want (main@${c2:0:12}"
(cd "$T" && "$BHOST_EXE" run "$T/store.yaml" --results-dir "$T/res3" --store "$n" \
  --baseline store:nearest-ancestor --quiet >/dev/null 2>"$T/nogit.err") && fail "no git: expected failure"
assert_has "outside a work tree: says so" "$(cat "$T/nogit.err")" "git rev-list --first-parent HEAD"

# ---- --no-store, and a store that cannot be written ----------------------
before=$(sql "$db" 'SELECT COUNT(*) FROM runs')
bh run "$T/store.yaml" --results-dir "$T/res" --no-store --quiet
assert_eq "--no-store run exits 0" 0 "$code"
assert_eq "--no-store adds nothing" "$before" "$(sql "$db" 'SELECT COUNT(*) FROM runs')"
mkdir -p "$T/notadb.db"
bh run "$T/store.yaml" --results-dir "$T/res4" --store "$T/notadb.db" --quiet
assert_eq "a store failure does not fail the run" 0 "$code"
assert_eq "one warning line" 1 "$(printf '%s\n' "$err" | grep -c 'warning: result not stored')"
assert_eq "the JSON result is written" 1 "$(ls "$T"/res4/storetest/*.json | wc -l)"
BHOST_STORE="$T/env.db" "$BHOST_EXE" run "$T/store.yaml" --results-dir "$T/res5" --quiet 2>/dev/null
assert_eq "BHOST_STORE names the default store" 1 "$(sql "$T/env.db" 'SELECT COUNT(*) FROM runs')"
