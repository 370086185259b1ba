#!/usr/bin/env python3
"""Writes what `docs/results/subtraction.md` shows of the recorded sweeps of Conjecture 4
and Problem 6 (`data/frontier/{conjecture-4,problem-6}-size-K-max-M.json`, each the
`lastbite subtraction conjecture` report of every set of size K up to M): the smallest
counterexample of each size, the share of counterexamples by size and largest element
(a table between `<!-- shares -->` and `<!-- /shares -->`) and its plot
(`docs/results/subtraction-shares.svg`).

Every number is counted from the files; the totals per largest element m are the number
of sets of size K with largest element m, C(m - 1, K - 1), which must add up to the
file's own `rulesets` count (checked).

Usage: scripts/frontier_shares.py [--check]
  --check: write nothing, exit 1 naming each file that is stale (CI runs this).
"""

import glob
import json
import os
import re
import sys
from collections import Counter
from math import comb

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FRONTIER = os.path.join(REPO, "data", "frontier")
DOC = os.path.join(REPO, "docs", "results", "subtraction.md")
SVG = os.path.join(REPO, "docs", "results", "subtraction-shares.svg")
STATEMENTS = [("conjecture-4", "Conjecture 4"), ("problem-6", "Problem 6")]
BAND = 10


def sweeps(stem):
    """{size: (largest element swept, Counter of counterexamples by largest element,
    smallest counterexample)} for one statement, the widest file of each size."""
    out = {}
    for path in glob.glob(os.path.join(FRONTIER, f"{stem}-size-*-max-*.json")):
        m = re.search(r"size-(\d+)-max-(\d+)\.json$", path)
        size, top = int(m.group(1)), int(m.group(2))
        if size in out and out[size][0] >= top:
            continue
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
        expected = sum(comb(x - 1, size - 1) for x in range(size, top + 1))
        if report["rulesets"] != expected:
            sys.exit(f"{path}: {report['rulesets']} rulesets, expected {expected}")
        found = report.get("counterexamples", [])
        by_max = Counter(max(c["set"]) for c in found)
        smallest = min(found, key=lambda c: (max(c["set"]), c["set"]), default=None)
        out[size] = (top, by_max, smallest)
    return out


def share(count, total):
    return f"{count:,} / {total:,} ({100 * count / total:.3f}%)" if total else ""


def table():
    lines = []
    for stem, title in STATEMENTS:
        data = sweeps(stem)
        sizes = sorted(data)
        lines.append(f"**{title}: the smallest counterexample of each size** (by largest")
        lines.append("element, then lexicographic; the heap is its first failing heap):")
        lines.append("")
        lines.append("| size | swept | counterexamples | smallest | heap |")
        lines.append("| ---: | --- | ---: | --- | ---: |")
        for k in sizes:
            top, by_max, smallest = data[k]
            total = sum(comb(x - 1, k - 1) for x in range(k, top + 1))
            s = "{" + ", ".join(map(str, smallest["set"])) + "}" if smallest else "none"
            heap = smallest["heap"] if smallest else ""
            n = sum(by_max.values())
            lines.append(f"| {k} | max <= {top} | {share(n, total)} | {s} | {heap} |")
        lines.append("")
        lines.append(f"**{title}: counterexamples among the sets with largest element in each band:**")
        lines.append("")
        lines.append("| largest element | " + " | ".join(f"size {k}" for k in sizes) + " |")
        lines.append("| --- |" + " ---: |" * len(sizes))
        top_all = max(data[k][0] for k in sizes)
        for lo in range(1, top_all + 1, BAND):
            hi = lo + BAND - 1
            cells = []
            for k in sizes:
                top, by_max, _ = data[k]
                xs = [x for x in range(max(lo, k), min(hi, top) + 1)]
                total = sum(comb(x - 1, k - 1) for x in xs)
                cells.append(share(sum(by_max[x] for x in xs), total))
            if any(cells):
                lines.append(f"| {lo}-{hi} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


COLORS = {4: "#1f77b4", 5: "#ff7f0e", 6: "#2ca02c", 7: "#d62728", 8: "#9467bd"}


def svg():
    """Share of counterexamples (%) against the largest element, one line per size,
    solid for Conjecture 4 and dashed for Problem 6."""
    w, h, left, right, top_pad, bottom = 760, 460, 70, 150, 40, 60
    series = []
    for stem, title in STATEMENTS:
        for k, (top, by_max, _) in sorted(sweeps(stem).items()):
            pts = []
            for x in range(k, top + 1):
                total = comb(x - 1, k - 1)
                pts.append((x, 100 * by_max[x] / total))
            series.append((stem, k, pts))
    xmax = max(p[0] for _, _, pts in series for p in pts)
    ymax = max(p[1] for _, _, pts in series for p in pts)
    ymax = max(0.1, ((ymax * 10) // 1 + 1) / 10)
    sx = lambda x: left + (w - left - right) * x / xmax
    sy = lambda y: h - bottom - (h - top_pad - bottom) * y / ymax
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
        f'<text x="{w / 2}" y="22" text-anchor="middle" font-size="15">Share of sets failing Conjecture 4 (solid) and Problem 6 (dashed)</text>',
        f'<line x1="{left}" y1="{h - bottom}" x2="{w - right}" y2="{h - bottom}" stroke="black"/>',
        f'<line x1="{left}" y1="{top_pad}" x2="{left}" y2="{h - bottom}" stroke="black"/>',
        f'<text x="{(left + w - right) / 2}" y="{h - 20}" text-anchor="middle">largest element of the set</text>',
        f'<text x="18" y="{(h - bottom + top_pad) / 2}" text-anchor="middle" transform="rotate(-90 18 {(h - bottom + top_pad) / 2})">sets failing (%)</text>',
    ]
    for x in range(0, xmax + 1, 10):
        out.append(f'<text x="{sx(x):.1f}" y="{h - bottom + 18}" text-anchor="middle">{x}</text>')
    steps = 5
    for i in range(steps + 1):
        y = ymax * i / steps
        out.append(f'<text x="{left - 6}" y="{sy(y) + 4:.1f}" text-anchor="end">{y:.2f}</text>')
        out.append(f'<line x1="{left}" y1="{sy(y):.1f}" x2="{w - right}" y2="{sy(y):.1f}" stroke="#ddd"/>')
    for stem, k, pts in series:
        dash = ' stroke-dasharray="5,4"' if stem == "problem-6" else ""
        path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in pts)
        out.append(f'<polyline fill="none" stroke="{COLORS[k]}" stroke-width="1.5"{dash} points="{path}"/>')
    for i, k in enumerate(sorted(COLORS)):
        y = top_pad + 20 + 20 * i
        out.append(f'<line x1="{w - right + 15}" y1="{y}" x2="{w - right + 45}" y2="{y}" stroke="{COLORS[k]}" stroke-width="2"/>')
        out.append(f'<text x="{w - right + 52}" y="{y + 4}">size {k}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    check = "--check" in sys.argv[1:]
    with open(DOC, encoding="utf-8") as f:
        doc = f.read()
    pattern = r"(<!-- shares -->\n).*?(<!-- /shares -->)"
    if not re.search(pattern, doc, flags=re.S):
        sys.exit(f"{DOC}: no <!-- shares --> ... <!-- /shares --> block")
    new_doc = re.sub(pattern, lambda m: m.group(1) + table() + m.group(2), doc, flags=re.S)
    new_svg = svg()
    stale = []
    old_svg = open(SVG, encoding="utf-8").read() if os.path.exists(SVG) else None
    for path, old, new in [(DOC, doc, new_doc), (SVG, old_svg, new_svg)]:
        if old != new:
            stale.append(os.path.relpath(path, REPO))
            if not check:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(new)
    if check and stale:
        print("stale (run scripts/frontier_shares.py): " + ", ".join(stale))
        sys.exit(1)
    print(("rewrote: " + ", ".join(stale)) if stale else "frontier_shares: all current")


if __name__ == "__main__":
    main()
