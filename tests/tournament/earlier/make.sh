#!/bin/bash
# How the files here were made, by earlier releases of gouji_rules (kept as they wrote them):
#   git worktree add --detach /tmp/old 083eee8 && python3 -m venv /tmp/v0 && (cd /tmp/old && /tmp/v0/bin/pip install .)
#   bash make.sh /tmp/v0 083eee8        (and the same with a build of 9af894a)
# Each is a club event of 12 players (players.csv) under a shipped variant, round 1 entered
# (finishing orders, 开点, a burn, a 闷), its standings as that release printed them, and
# records written by `simulate --records` (9af894a: they carry their rules and fingerprint).
G=$1/bin/gouji; T=$2
for v in dagang dianshaomenla; do
  f=${T}_${v}.sqlite; rm -f $f*
  $G event new $f --name "club $v" --variant $v --players players.csv --rounds 2 --hands 2 >/dev/null
  $G event record $f --round 1 --table 1 --hand 1 --finish "0 1 2 3 4 5" --opened "0 1 2" >/dev/null
  $G event record $f --round 1 --table 1 --hand 2 --finish "0 2 4 1 3 5" --opened "0 2 4" >/dev/null
  $G event record $f --round 1 --table 2 --hand 1 --finish "1 0 3 2 5 4" --opened "1 0 3 2" --burn "1:2" >/dev/null
  $G event record $f --round 1 --table 2 --hand 2 --finish "1 0 2 3 4 5" --opened "1 0" --men "5:2" >/dev/null
  $G event standings $f --json > ${f%.sqlite}.standings.json
  python3 -c "import sqlite3; c=sqlite3.connect('$f'); c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); c.execute('VACUUM'); c.close()"
  rm -f $f-wal $f-shm
done
$G simulate --variant dagang --hands 1 --records ${T}_dagang.jsonl --quiet >/dev/null
$G simulate --variant dianshaomenla --hands 2 --match-hands 2 --records ${T}_dianshaomenla.jsonl --quiet >/dev/null
