#!/usr/bin/env bash
# Read and solve a 10^6-node .efg file through the CLI (wall time and peak memory, per
# node), against pygambit's time to merely read the same kind of file.
#
# Usage: benches/efg_read_solve.sh [NODES]   (default 1000000; needs .venv from scripts/test
# for the pygambit comparison, which reads a 10^4-node file and one of 10^5 nodes, since
# pygambit's reader grows faster than linearly)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000000}
cargo build --release -p lastbite-cli >/dev/null 2>&1
BIN=target/release/lastbite
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
$BIN efg random --nodes "$N" --seed 7 -o "$DIR/big.efg"
echo "file: $N nodes, $(du -h "$DIR/big.efg" | cut -f1)"
for mode in text json; do
  flag=""; [ $mode = json ] && flag="--json"
  for i in 1 2 3; do
    /usr/bin/time -f "%e %M" -o "$DIR/t" $BIN efg solve "$DIR/big.efg" $flag >/dev/null
    read -r secs kb < "$DIR/t"
    echo "lastbite efg solve ($mode): ${secs} s, $((kb / 1024)) MiB peak, $((kb * 1024 / N)) bytes/node"
  done
done
if [ -x .venv/bin/python ]; then
  for n in 10000 100000; do
    $BIN efg random --nodes $n --seed 7 -o "$DIR/r$n.efg"
    /usr/bin/time -f "%e %M" -o "$DIR/t" $BIN efg solve "$DIR/r$n.efg" >/dev/null
    read -r ls lkb < "$DIR/t"
    ps=$(.venv/bin/python -c "
import time, pygambit as gbt
t = time.perf_counter(); gbt.read_efg('$DIR/r$n.efg'); print(f'{time.perf_counter() - t:.3f}')")
    echo "$n nodes: lastbite read+solve ${ls} s (whole command); pygambit read_efg alone ${ps} s"
  done
fi
