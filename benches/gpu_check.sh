#!/bin/bash
# lastbite's GPU kernels (feature `gpu`) on the hardware at hand: each command twice on the
# GPU and twice with LASTBITE_GPU=off (the CPU of the same machine), timed, and the two
# JSON reports compared key by key (all but the device's name and how the path was read
# back). Usage, from the repository root:
#   cargo build --release -p lastbite-cli --features lastbite/gpu
#   bash benches/gpu_check.sh [path/to/lastbite]
# Dinners: the first 26, 28, 30 and 32 morsels of examples/dinner/d2x32.csv (utilities 1
# to 1000, so the payoffs fit the kernel's 32 bits) and examples/dinner/d3x26.csv.
set -u
B=${1:-target/release/lastbite}
T=$(mktemp -d)
for n in 26 28 30 32; do head -n $n examples/dinner/d2x32.csv > "$T/d2x$n.csv"; done
command -v nvidia-smi >/dev/null && nvidia-smi -L
nproc
compare() {
python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
print("  gpu:", a.get("gpu"), "| declined:", a.get("gpu_declined"))
for k in ("gpu", "gpu_declined", "resolved_states", "path_recovery"):
    a.pop(k, None); b.pop(k, None)
print("  SAME REPORT" if a == b else "  DIFFERENT: " + str(sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))))
PY
}
run() {
  local name=$1; shift
  for dev in gpu cpu; do
    for i in 1 2; do
      if [ $dev = cpu ]; then export LASTBITE_GPU=off; else unset LASTBITE_GPU; fi
      /usr/bin/time -f "$name $dev run $i: %e s wall, %U s user, %S s sys, %M KB peak" \
        timeout 150 "$B" "$@" --json > "$T/$name.$dev.json" || echo "$name $dev: exit $?"
    done
  done
  unset LASTBITE_GPU
  compare "$T/$name.gpu.json" "$T/$name.cpu.json"
}
run d2x26 dinner solve "$T/d2x26.csv" --method exact
run d2x26-friendly dinner solve "$T/d2x26.csv" --method exact --ties friendly
run d3x26 dinner solve examples/dinner/d3x26.csv --method exact --order snake
run d3x26-mixed dinner solve examples/dinner/d3x26.csv --method exact --order snake --ties A=antagonistic,B=last,C=friendly
run d2x28 dinner solve "$T/d2x28.csv" --method exact
run d2x30 dinner solve "$T/d2x30.csv" --method exact --memory-gib 64
run d2x32 dinner solve "$T/d2x32.csv" --method exact --memory-gib 100
run nim30 cookie nim --max-size 30
run general17 cookie general --max-size 17
run general18 cookie general --max-size 18 --memory-gib 32
rm -rf "$T"
