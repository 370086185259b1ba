#!/usr/bin/env bash
# Scaling on paper: the predicted wall time of a large sharded sweep on 1, 10 and 100
# machines, from the measured times of a sample of its shards (each run by the CLI on
# one core, as a Dask task or a batch job runs it).
#
#   benches/sweeps_scaling.sh [MAX] [SIZE] [STATEMENT] [SHARDS] [SAMPLES] [CORES]
#   default: Conjecture 4 on every set of size 5 up to 60 (5,461,512 rulesets) in 1000
#   shards, 5 sampled shards, machines of 2 cores like this one.
#
# A shard's time is the plan (listing every ruleset, paid once per worker process: the
# library caches it) plus its items; items go round-robin (item i to shard i mod N), so
# every shard holds a like mix of cheap and costly rulesets and the sample stands for all.
# Prediction for M machines of C cores: plan + ceil(N / (M C)) x (mean shard time - plan).
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-60} size=${2:-5} statement=${3:-4} shards=${4:-1000} samples=${5:-5} cores=${6:-2}
bin=${LASTBITE_BIN:-target/release/lastbite}
export RAYON_NUM_THREADS=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # shard I/N -> seconds
  local s e
  s=$(date +%s.%N)
  "$bin" subtraction conjecture "$statement" --sizes "$size" --max "$max" \
    --shard "$1/$2" --shard-out "$tmp/s.json"
  e=$(date +%s.%N)
  echo "$e - $s" | bc -l
}
# More shards than items: shard 1 holds at most one ruleset, so its time is the plan's.
plan=$(run 1 100000000)
items=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['items'])" "$tmp/s.json")
echo "Conjecture $statement, every set of size $size up to $max: $items rulesets in $shards shards"
printf 'plan (per worker process): %.2f s\n' "$plan"
total=0
for j in $(seq 0 $((samples - 1))); do
  k=$((1 + j * shards / samples))
  t=$(run "$k" "$shards")
  w=$(echo "$t - $plan" | bc -l)
  printf 'shard %d/%d: %.2f s (%.2f s of items)\n' "$k" "$shards" "$t" "$w"
  total=$(echo "$total + $w" | bc -l)
done
mean=$(echo "$total / $samples" | bc -l)
printf 'mean shard work: %.2f s; whole sweep: %.0f core-seconds (%.1f core-hours)\n' \
  "$mean" "$(echo "$mean * $shards" | bc -l)" "$(echo "$mean * $shards / 3600" | bc -l)"
for m in 1 10 100; do
  slots=$((m * cores))
  waves=$(( (shards + slots - 1) / slots ))
  wall=$(echo "$plan + $waves * $mean" | bc -l)
  printf '%4d machine(s) x %d cores: %5d shard waves, predicted wall %8.0f s (%.2f h)\n' \
    "$m" "$cores" "$waves" "$wall" "$(echo "$wall / 3600" | bc -l)"
done
