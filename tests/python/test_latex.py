"""lastbite's LaTeX tables through the CLI, compiled by pdflatex itself.

Each `--latex --standalone` output must compile with `pdflatex` (Debian's texlive, which
the test command installs when missing) without an error, and the numbers of the table,
parsed back from the LaTeX, must equal the command's JSON report. (Escaping of hostile
text is tested with the exporter, in lastbite/src/latex.rs.)
"""

import json
import os
import re
import shutil
import subprocess
from fractions import Fraction

import pytest

LASTBITE = os.environ.get("LASTBITE_BIN", "target/release/lastbite")
PDFLATEX = shutil.which("pdflatex")
needs_pdflatex = pytest.mark.skipif(
    PDFLATEX is None and not os.environ.get("CI"),
    reason="pdflatex is not installed (scripts/test installs it)",
)


def run(*args):
    out = subprocess.run([LASTBITE, *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def compile_tex(tex, tmp_path):
    """Compiles a standalone document; returns pdflatex's log."""
    (tmp_path / "t.tex").write_text(tex)
    out = subprocess.run(
        [PDFLATEX or "pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "t.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout[-3000:]
    assert (tmp_path / "t.pdf").stat().st_size > 1000
    return out.stdout


def number(cell):
    """A math-mode number of lastbite's LaTeX (`$-12\\,345$`, `$\\frac{25}{2}$`)."""
    body = cell.strip().strip("$").replace("\\,", "")
    m = re.fullmatch(r"(-?)\\frac\{(\d+)\}\{(\d+)\}", body)
    if m:
        return Fraction(int(m.group(2)), int(m.group(3))) * (-1 if m.group(1) else 1)
    return Fraction(int(body))


def body_rows(tex):
    """The cells of the rows between \\midrule and \\bottomrule."""
    inner = tex.split("\\midrule", 1)[1].split("\\bottomrule", 1)[0]
    return [[c.strip() for c in line.rstrip("\\ ").split(" & ")] for line in inner.strip().splitlines()]


def outcome(cell):
    """`$(14, 3)$, $3, 11$` as ((14, 3), [3, 11])."""
    m = re.fullmatch(r"\$\((-?\d+), (-?\d+)\)\$(?:, \$([\d, ]+)\$)?", cell)
    assert m, cell
    moves = [int(x) for x in m.group(3).split(", ")] if m.group(3) else []
    return (int(m.group(1)), int(m.group(2))), moves


@needs_pdflatex
def test_the_subtraction_table_compiles_and_its_numbers_are_the_reports(tmp_path):
    args = ["subtraction", "table", "--set", "4,5,9", "--max-heap", "49"]
    tex = run(*args, "--latex", "--standalone")
    compile_tex(tex, tmp_path)
    report = json.loads(run(*args, "--json"))
    rows = body_rows(tex)
    assert len(rows) == len(report["rows"]) == 50
    for cells, want in zip(rows, report["rows"]):
        assert number(cells[0]) == want["heap"]
        base = want["FvF"]["outcome"]
        assert outcome(cells[1]) == (tuple(base), want["FvF"]["moves"])
        for k, name in enumerate(["FvA", "AvF", "AvA"]):
            at = 2 + 3 * k
            o, moves = outcome(cells[at])
            assert (list(o), moves) == (want[name]["outcome"], want[name]["moves"])
            assert number(cells[at + 1]) == o[0] - base[0]
            assert number(cells[at + 2]) == o[1] - base[1]
        assert number(cells[-1]) == want["zero_sum"]


def test_the_latex_is_only_a_table_without_standalone():
    tex = run("subtraction", "table", "--set", "1,2", "--max-heap", "3", "--latex")
    assert tex.startswith("\\begin{table}") and tex.rstrip().endswith("\\end{table}")
    assert "\\documentclass" not in tex


def test_standalone_needs_latex():
    out = subprocess.run([LASTBITE, "subtraction", "table", "--set", "1,2", "--standalone"], capture_output=True, text=True)
    assert out.returncode == 2
    assert "--latex" in out.stderr and len(out.stderr.strip().splitlines()) == 1
