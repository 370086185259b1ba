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


def compiled_with_report(args, tmp_path):
    """A command's `--latex --standalone` output, compiled, and its JSON report."""
    tex = run(*args, "--latex", "--standalone")
    compile_tex(tex, tmp_path)
    return tex, json.loads(run(*args, "--json"))


def number(cell):
    """A math-mode number of lastbite's LaTeX (`$-12\\,345$`, `$\\frac{25}{2}$`)."""
    body = cell.strip().strip("$").replace("\\,", "")
    m = re.fullmatch(r"(-?)\\frac\{(\d+)\}\{(\d+)\}", body)
    if m:
        return Fraction(int(m.group(2)), int(m.group(3))) * (-1 if m.group(1) else 1)
    return Fraction(int(body))


def body_rows(tex):
    """The cells of the body rows: between \\midrule and \\bottomrule, or in a longtable
    between \\endfoot and its end."""
    if "\\endfoot" in tex:
        inner = tex.split("\\endfoot", 1)[1].split("\\end{longtable}", 1)[0]
    else:
        # After the header's \\midrule; a table of labelled lines has none.
        inner = tex.split("\\toprule", 1)[1].split("\\bottomrule", 1)[0]
        if "\\midrule" in inner:
            inner = inner.split("\\midrule", 1)[1]
    rows = []
    for line in inner.strip().splitlines():
        line = line.strip()
        assert line.endswith("\\\\"), line
        rows.append([c.strip() for c in re.split(r"(?<!\\)&", line[:-2])])
    return rows


def outcome(cell):
    """`$(14, 3)$, $3, 11$` as ((14, 3), [3, 11])."""
    m = re.fullmatch(r"\$\((-?\d+), (-?\d+)\)\$(?:, \$([\d, ]+)\$)?", cell)
    assert m, cell
    moves = [int(x) for x in m.group(3).split(", ")] if m.group(3) else []
    return (int(m.group(1)), int(m.group(2))), moves


@needs_pdflatex
def test_the_subtraction_table_compiles_and_its_numbers_are_the_reports(tmp_path):
    args = ["subtraction", "table", "--set", "4,5,9", "--max-heap", "49"]
    tex, report = compiled_with_report(args, tmp_path)
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


def grid(tex):
    """A table of rows keyed by its first column and columns by header: {(row, column): number}."""
    head = tex.split("\\toprule", 1)[1].split("\\\\", 1)[0]
    columns = [c.strip() for c in head.split("&")]
    cells = {}
    for row in body_rows(tex):
        key = number(row[0])
        for name, cell in zip(columns[1:], row[1:]):
            if cell:
                cells[(key, name)] = number(cell)
    return cells


@needs_pdflatex
@pytest.mark.parametrize(
    "command, key, column",
    [
        (["cookie", "table", "--max-size", "30"], "counts", lambda c: (c["n"], f"d = {c['d']}")),
        (["cookie", "nim", "--max-size", "12"], "distribution", lambda c: (c["n"], str(c["nim"]))),
    ],
)
def test_cookie_count_tables_compile_and_hold_the_reports_counts(tmp_path, command, key, column):
    tex, report = compiled_with_report(command, tmp_path)
    want = {column(c): Fraction(c["count"]) for c in report[key]}
    assert grid(tex) == want
    # Counts past 10^4 are grouped by thin spaces (n = 30 has counts of 8 digits).
    assert "\\," in tex or key == "distribution"


@needs_pdflatex
def test_cookie_critical_positions_compile_and_are_the_reports(tmp_path):
    tex = run("cookie", "critical", "--max-size", "9", "--latex", "--standalone")
    compile_tex(tex, tmp_path)
    report = json.loads(run("cookie", "critical", "--max-size", "9", "--json"))
    rows = body_rows(tex)
    assert len(rows) == len(report["critical"])
    for (n, d, position), want in zip(rows, report["critical"]):
        assert (number(n), number(d)) == (want["n"], want["d"])
        assert [int(x) for x in position.strip("$()").split(", ")] == want["position"]


def exact(v):
    return Fraction(v) if isinstance(v, int) else Fraction(v)


def tuple_of(cell):
    """`$(1, \\frac{5}{2})$` as a list of numbers."""
    inner = cell.strip()
    assert inner.startswith("$(") and inner.endswith(")$"), cell
    return [number(x) for x in inner[2:-2].split(", ")]


def tables_of(tex):
    """The text of each table float."""
    return [part for part in tex.split("\\begin{table}")[1:]]


@needs_pdflatex
def test_token_dollars_seat_values_compile_and_are_the_reports(tmp_path):
    args = ["tokens", "seats", "--stacks", "12", "--max-players", "5", "--clock"]
    tex, report = compiled_with_report(args, tmp_path)
    rows = body_rows(tex)
    assert len(rows) == len(report["rows"])
    for cells, want in zip(rows, report["rows"]):
        assert number(cells[0]) == want["players"]
        got = [number(c) for c in cells[1:] if c]
        assert got == [exact(x) for x in want["payoffs"]]
    # The caption's dollars are text, not math.
    assert "\\$1 to \\$12" in tex


@needs_pdflatex
def test_token_dollars_solutions_compile_with_explanations_and_every_outcome(tmp_path):
    args = ["tokens", "--values", "1,2.5,3,0.25,4", "--players", "3", "--all"]
    tex, report = compiled_with_report(args, tmp_path)
    equilibrium, outcomes = tables_of(tex)
    rows = body_rows(equilibrium)
    assert [(r[0], number(r[1]), number(r[2])) for r in rows] == [
        ("ABC"[i], m, exact(p)) for i, (m, p) in enumerate(zip(report["moves"], report["payoffs"]))
    ]
    assert [[number(c) for c in r] for r in body_rows(outcomes)] == [[exact(x) for x in v] for v in report["outcomes"]]
    # With --at: the next player's choices, each payoff vector as the report's.
    tex, report = compiled_with_report([*args[:-1], "--at", "3"], tmp_path)
    choices = body_rows(tables_of(tex)[1])
    assert [(number(r[0]), tuple_of(r[1])) for r in choices] == [
        (l["stack"], [exact(x) for x in l["payoffs"]]) for l in report["explanation"]
    ]


@needs_pdflatex
def test_the_token_games_on_grids_compile_with_their_grids(tmp_path):
    args = ["tokens", "--stacks", "4", "--players", "2", "--on-grids", "--grid", "4"]
    tex, report = compiled_with_report(args, tmp_path)
    rows = body_rows(tex)
    assert [(number(r[0]), tuple_of(r[1]), tuple_of(r[2])) for r in rows] == [
        (g["k"], [exact(x) for x in g["moves"]], [exact(x) for x in g["payoffs"]]) for g in report["grids"]
    ]


@needs_pdflatex
def test_a_long_table_breaks_across_pages_and_keeps_every_row(tmp_path):
    args = ["subtraction", "table", "--set", "4,5,9", "--max-heap", "300"]
    tex = run(*args, "--latex", "--standalone")
    assert "\\begin{longtable}" in tex
    log = compile_tex(tex, tmp_path)
    pages = int(re.search(r"Output written on t.pdf \((\d+) pages", log).group(1))
    assert pages >= 4
    report = json.loads(run(*args, "--json"))
    rows = body_rows(tex)
    assert [number(r[0]) for r in rows] == [r["heap"] for r in report["rows"]]
    assert [number(r[-1]) for r in rows] == [r["zero_sum"] for r in report["rows"]]


def set_of(text):
    """`\\{4,5,9\\}` as [4, 5, 9]."""
    m = re.fullmatch(r"\\\{([\d,]+)\\\}", text.strip())
    assert m, text
    return [int(x) for x in m.group(1).split(",")]


@needs_pdflatex
def test_a_conjectures_counterexamples_compile_and_are_the_reports(tmp_path):
    args = ["subtraction", "conjecture", "4", "--sizes", "5", "--max", "28"]
    tex, report = compiled_with_report(args, tmp_path)
    assert report["counterexamples"], "the range was chosen to have counterexamples"
    summary, listing = tables_of(tex)
    facts = {r[0]: r[1] for r in body_rows(summary)}
    assert facts["verdict"] == report["verdict"]
    assert number(facts["rulesets"]) == report["rulesets"]
    assert number(facts["covered by the hypothesis"]) == report["applicable"]
    assert number(facts["counterexamples"]) == len(report["counterexamples"])
    got = [(set_of(r[0]), number(r[1]) if r[1] else None) for r in body_rows(listing)]
    assert got == [(c["set"], c["heap"]) for c in report["counterexamples"]]


@needs_pdflatex
def test_the_problems_tables_compile_and_are_the_reports(tmp_path):
    args = ["subtraction", "problems", "--sizes", "2,3", "--max", "14"]
    tex, report = compiled_with_report(args, tmp_path)
    by_max, zero, positive = (body_rows(t) for t in tables_of(tex))
    keys = ["size", "max_s", "rulesets", "largest"]
    assert [[number(c) for c in r[:4]] for r in by_max] == [[row[k] for k in keys] for row in report["by_max"]]
    counts = ["zero_discrepancy", "positive_FvF_to_AvF", "positive_FvF_to_FvA"]
    assert [[number(c) for c in r[5:]] for r in by_max] == [[row[k] for k in counts] for row in report["by_max"]]
    for r, row in zip(by_max, report["by_max"]):
        at = row["largest_at"]
        assert (r[4] == "") == (at is None)
        if at:
            assert r[4] == f"\\{{{','.join(map(str, at['set']))}\\}}, heap {at['heap']}, player {at['player']}"
    shape = ["size", "rulesets", "zero_discrepancy", "dominant", "half_line", "other", "primitive"]
    assert [[number(c) for c in r[:7]] for r in zero] == [[z[k] for k in shape] for z in report["zero_shape"]]
    assert [(number(r[0]), r[1], number(r[2]), number(r[5])) for r in positive] == [
        (p["size"], p["deviation"].replace("_to_", " to "), p["rulesets"], p["largest_gain"]) for p in report["positive_shape"]
    ]


@needs_pdflatex
def test_the_general_cookie_table_compiles_and_is_the_reports(tmp_path):
    args = ["cookie", "general", "--max-size", "9"]
    tex, report = compiled_with_report(args, tmp_path)
    keys = ["n", "positions", "p_positions", "no_duration", "max_nim", "remoteness_not_suspense", "max_remoteness"]
    rows = body_rows(tex)
    assert [[number(c) for c in r[:7]] for r in rows] == [[row[k] for k in keys] for row in report["rows"]]
    assert grid(tex) == {
        (row["n"], f"nim {k}"): Fraction(c) for row in report["rows"] for k, c in row["nim"].items() if c
    } | {(row["n"], name): Fraction(row[k]) for row in report["rows"] for name, k in [
        ("positions", "positions"), ("P-positions", "p_positions"), ("no duration", "no_duration"),
        ("max nim", "max_nim"), ("rem. != susp.", "remoteness_not_suspense"), ("max rem.", "max_remoteness"),
    ]}


@needs_pdflatex
def test_the_dinner_sweeps_and_efg_info_compile_and_are_the_reports(tmp_path):
    # Balance: exact percentages by size.
    tex, report = compiled_with_report(["dinner", "balance", "--max-size", "10", "--trials", "20"], tmp_path)
    rows = body_rows(tex)
    assert len(rows) == len(report["rows"]) > 0
    for cells, want in zip(rows, report["rows"]):
        assert [number(c) for c in cells] == [want["size"], exact(want["alternation"]), exact(want["thue_morse"])]
    # Multiplicity: the histogram.
    tex, report = compiled_with_report(["dinner", "multiplicity", "--size", "6", "--trials", "30"], tmp_path)
    assert [[number(c) for c in r] for r in body_rows(tex)] == [[h["outcomes"], h["dinners"]] for h in report["histogram"]]
    # Experiment: labelled counts, the improvement exact.
    tex, report = compiled_with_report(["dinner", "experiment", "--size", "8", "--trials", "200"], tmp_path)
    lines = {r[0]: r[1] for r in body_rows(tex)}
    assert number(lines["Pareto inefficient"]) == report["inefficient"]
    assert number(lines["weakly Pareto inefficient"]) == report["weakly_inefficient"]
    assert number(lines["largest improvement for a player (\\%)"]) == exact(report["max_improvement_percent_exact"])
    # Pareto, one dinner: every improving outcome.
    tex, report = compiled_with_report(["dinner", "pareto", "--morsels", "1,5 2,1 3,2 4,3 5,4 6,6"], tmp_path)
    assert report["improving"]
    assert [[number(c) for c in r] for r in body_rows(tex)] == [[exact(x) for x in p] for p in report["improving"]]
    # efg info: counts, and each player's strategy counts.
    game = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "efg", "centipede.efg")
    tex, report = compiled_with_report(["efg", "info", game], tmp_path)
    first, second = tables_of(tex)
    lines = {r[0]: r[1] for r in body_rows(first)}
    assert number(lines["nodes"]) == report["nodes"] and number(lines["terminal nodes"]) == report["terminal_nodes"]
    players = body_rows(second)
    assert [number(r[1]) for r in players] == report["pure_strategies"]
    # Pareto, the sweep: every inefficient dinner.
    tex, report = compiled_with_report(["dinner", "pareto", "--size", "6"], tmp_path)
    assert len(body_rows(tex)) == len(report["inefficient"]) + len(report["weakly_inefficient"]) > 0
