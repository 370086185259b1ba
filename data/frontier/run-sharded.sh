#!/usr/bin/env bash
# Runs one sweep of `lastbite subtraction conjecture` in N shards, one after another,
# skipping shards whose file already exists (a killed run resumes where it stopped),
# then merges them into OUT. Shard files go to OUT.shards/ (each written atomically).
#   data/frontier/run-sharded.sh OUT N ARGS...
# e.g. data/frontier/run-sharded.sh data/frontier/conjecture-11-pairs-max-1000.json 200 11 --max 1000
set -euo pipefail
out=$1 n=$2
shift 2
bin=${LASTBITE_BIN:-target/release/lastbite}
dir="$out.shards"
mkdir -p "$dir"
for i in $(seq 1 "$n"); do
  f=$(printf '%s/shard-%05d-of-%05d.json' "$dir" "$i" "$n")
  [ -e "$f" ] && continue
  start=$(date +%s.%N)
  "$bin" subtraction conjecture "$@" --shard "$i/$n" --shard-out "$f"
  echo "shard $i/$n: $(echo "$(date +%s.%N) - $start" | bc) s" >&2
done
"$bin" merge "$dir"/shard-*-of-*.json --json > "$out.tmp"
mv "$out.tmp" "$out"
echo "$out: merged $n shards" >&2
