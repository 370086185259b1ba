#!/usr/bin/env bash
# End-to-end speed targets of the foundation issue, measured with the release binary:
#   1. crossout on 10^6 morsels read from CSV vs GNU `sort -n` of the same file;
#   2. the exact two-player SPE at n = 26 (time and peak memory);
#   3. the exact SPE at n = 16 vs the memoised Python search (benches/dinner_memo.py).
# Usage: bash benches/crossout_vs_sort.sh   (from the repository root)
set -euo pipefail
cargo build --release -q
bin=target/release/lastbite
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" <<'PY'
import random, sys
d = sys.argv[1]
rng = random.Random(5)
with open(f"{d}/m1e6.csv", "w") as f:
    for _ in range(10**6):
        f.write(f"{rng.randrange(10**9)},{rng.randrange(10**9)}\n")
for n in (16, 26):
    rng = random.Random(11)
    a = [rng.randrange(10**9) for _ in range(n)]
    b = [rng.randrange(10**9) for _ in range(n)]
    with open(f"{d}/d{n}.csv", "w") as f:
        f.writelines(f"{x},{y}\n" for x, y in zip(a, b))
PY
t() { local s e; s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N); echo "$e - $s" | bc; }
best() { local b=999; for _ in 1 2 3; do x=$(t "$@"); b=$(echo "if ($x < $b) $x else $b" | bc); done; echo "$b"; }
echo "crossout, 10^6 morsels from CSV (human table):  $(best $bin dinner solve "$tmp/m1e6.csv") s"
echo "crossout, 10^6 morsels from CSV (--json):       $(best $bin dinner solve "$tmp/m1e6.csv" --json) s"
echo "GNU sort -n of the same file:                   $(best sort -n "$tmp/m1e6.csv") s"
echo "exact SPE n=16 (CLI, whole command):            $(best $bin dinner solve "$tmp/d16.csv" --method exact) s"
echo "python memoised search n=16:                    $(python3 benches/dinner_memo.py 16)"
/usr/bin/time -f "exact SPE n=26: %e s wall, %M KiB peak RSS" $bin dinner solve "$tmp/d26.csv" --method exact >/dev/null
