#!/usr/bin/env python3
"""Extracts Tables 1-3 of the subtraction-games paper (shared/papers/
subtraction-tie-breaking.md) into CSV files of published values, once, for provenance.

lastbite never reads the paper at run time; its tests compare the recomputed tables with
these files. Usage: python3 extract_subtraction_tables.py ../../../../shared/papers/subtraction-tie-breaking.md
"""
import re
import sys

text = open(sys.argv[1]).read().splitlines()
SOURCE = ("# Source: Bhagat, Kulkarni, Larsson & Murali, 'Tie-breaking in self interest cumulative "
          "subtraction games', {}, as extracted in shared/papers/subtraction-tie-breaking.md.")

# Table 1: S = {3, 5}; rows x, o_FvF(x), o_AvA(x) as lists of pairs.
i = next(k for k, l in enumerate(text) if l.startswith("Table 1:"))
pairs = lambda line: [tuple(map(int, p)) for p in re.findall(r"\((\d+),(\d+)\)\(", line)]
fvf = pairs(text[i + 2])
ava = pairs(text[i + 3])
with open("subtraction-table1.csv", "w") as f:
    f.write(SOURCE.format("Table 1 (S = {3, 5})") + "\n")
    f.write("heap,fvf_1,fvf_2,ava_1,ava_2\n")
    for h, (a, b) in enumerate(zip(fvf, ava)):
        f.write(f"{h},{a[0]},{a[1]},{b[0]},{b[1]}\n")

row = re.compile(r"^(\d+) " + r" ".join([r"\((-?\d+),(-?\d+)\)(?:, ([\d,]+))?(?: ([-+]?\d+) ([-+]?\d+))?"] * 4) + r"\s*$")
for number, rules in ((2, "3,8,11,13"), (3, "4,5,9")):
    start = next(k for k, l in enumerate(text) if l.startswith(f"Table {number}:"))
    out = [SOURCE.format(f"Table {number} (S = {{{rules.replace(',', ', ')}}}), in the Appendix"),
           "# Moves: every PSPE move, separated by spaces; empty when no move is possible.",
           "heap,FvF_1,FvF_2,FvF_moves,FvA_1,FvA_2,FvA_moves,AvF_1,AvF_2,AvF_moves,AvA_1,AvA_2,AvA_moves"]
    for line in text[start + 2:]:
        if line.startswith("Heap"):
            continue
        m = row.match(line.strip())
        if not m:
            break
        g = m.groups()
        cells = [g[0]]
        for c in range(4):
            a, b, moves = g[1 + 5 * c], g[2 + 5 * c], g[3 + 5 * c]
            cells += [a, b, (moves or "").replace(",", " ")]
        out.append(",".join(cells))
    open(f"subtraction-table{number}.csv", "w").write("\n".join(out) + "\n")
    print(f"table {number}: {len(out) - 3} rows")
