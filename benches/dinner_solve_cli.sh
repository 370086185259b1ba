#!/usr/bin/env bash
# Whole-command timing of `lastbite dinner solve` on a 10^6-morsel CSV (distinct and
# duplicate utilities) against GNU `sort -t, -k1,1n` on the same file (the target:
# no slower than sort), and both read through a pipe (`| cat`: the target is the
# JSON document, compact when not written to a terminal, no slower than sort's output read
# likewise). Usage: benches/dinner_solve_cli.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
cargo build --release -q -p lastbite-cli
bin=target/release/lastbite
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" <<'PY'
import random, sys
random.seed(1)
d = sys.argv[1]
with open(f"{d}/distinct.csv", "w") as f:
    for i in range(10**6): f.write(f"{random.randint(1, 10**9)},{random.randint(1, 10**9)}\n")
with open(f"{d}/duplicate.csv", "w") as f:
    for i in range(10**6): f.write(f"{random.randint(1, 100)},{random.randint(1, 100)}\n")
PY
best() { # best wall time of $runs runs of the command
  local b=999
  for _ in $(seq "$runs"); do
    local s e t
    s=$(date +%s.%N); "$@" > /dev/null; e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc); if (( $(echo "$t < $b" | bc) )); then b=$t; fi
  done
  printf '%.3f s' "$b"
}
piped() { # best wall time of $runs runs of the command with its output read through a pipe
  local b=999
  for _ in $(seq "$runs"); do
    local s e t
    s=$(date +%s.%N); "$@" | cat > /dev/null; e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc); if (( $(echo "$t < $b" | bc) )); then b=$t; fi
  done
  printf '%.3f s' "$b"
}
for f in distinct duplicate; do
  echo "$f: solve $(best $bin dinner solve "$dir/$f.csv"), solve --json $(best $bin dinner solve "$dir/$f.csv" --json), sort $(best sort -t, -k1,1n "$dir/$f.csv")"
  echo "$f, read through a pipe: solve --json $(piped $bin dinner solve "$dir/$f.csv" --json) ($(
    $bin dinner solve "$dir/$f.csv" --json | wc -c) bytes; --pretty $(piped $bin dinner solve "$dir/$f.csv" --json --pretty)), sort $(piped sort -t, -k1,1n "$dir/$f.csv") ($(sort -t, -k1,1n "$dir/$f.csv" | wc -c) bytes)"
done
