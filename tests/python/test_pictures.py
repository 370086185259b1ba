"""Game trees and TikZ pictures, as users make them: through the CLI and the Python
package, compiled by pdflatex itself, checked against the library's own answers.

- Drawn trees of random `.efg` games (1 to 500 nodes, chance, every tie rule): every
  leaf is drawn or counted in a folded triangle (against `efg info`), no two node boxes
  overlap, the root's value is `efg solve`'s, the highlighted play follows the chosen
  moves; snapshots of a small tree's SVG and TikZ (`LASTBITE_BLESS=1` rewrites them).
- Every picture command's `--tikz-standalone` compiles, and its TikZ holds the same texts
  as its SVG.
- `lastbite.draw_tree` on a Python game with chance and hostile labels; reports are
  dicts that notebooks show as escaped HTML.
"""

import html
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from test_latex import PDFLATEX, compile_tex, needs_pdflatex, run

LASTBITE = os.environ.get("LASTBITE_BIN", "target/release/lastbite")
SNAPSHOTS = Path(__file__).parent / "snapshots"
ENTRY = Path(__file__).parents[2] / "examples" / "efg" / "entry.efg"


def overlaps(a, b):
    return abs(a["x"] - b["x"]) * 2 < a["width"] + b["width"] and abs(a["y"] - b["y"]) * 2 < a["height"] + b["height"]


def check_tree(report, terminal_nodes, node_count):
    nodes = report["nodes"]
    assert report["drawn_nodes"] == len(nodes)
    assert report["total_leaves"] == terminal_nodes
    assert report["total_nodes"] == node_count
    drawn = sum(n["kind"] == "terminal" for n in nodes)
    folded = sum(n["hidden_leaves"] for n in nodes if n["kind"] == "folded")
    assert drawn + folded == terminal_nodes
    hidden = sum(n["hidden_nodes"] for n in nodes if n["kind"] == "folded")
    assert len(nodes) - report["folded"] + hidden == node_count
    for i, a in enumerate(nodes):
        assert 0 <= a["x"] - a["width"] / 2 and a["x"] + a["width"] / 2 <= report["width"]
        for b in nodes[i + 1 :]:
            assert not overlaps(a, b), (a, b)
    # The play: from the root, the chosen child at each decision node, to the end or
    # the first chance node; it is highlighted and its labels are the report's path.
    children = {}
    for i, n in enumerate(nodes):
        if n["parent"] is not None:
            children.setdefault(n["parent"], []).append(i)
    at, labels = 0, []
    while nodes[at]["kind"] == "decision" and at in children:
        nxt = [c for c in children[at] if nodes[c]["chosen"]]
        assert len(nxt) == 1
        at = nxt[0]
        assert nodes[at]["on_path"]
        labels.append(nodes[at]["label"])
    if nodes[at]["kind"] != "folded":
        assert labels == report["path"]
    assert sum(n["chosen"] for n in nodes if n["kind"] != "chance") <= len(nodes)


@pytest.mark.parametrize("seed", range(1, 13))
def test_drawn_efg_trees_account_for_every_leaf(seed, tmp_path):
    nodes = [1, 7, 40, 120, 260, 500][seed % 6]
    game = tmp_path / "g.efg"
    run("efg", "random", "--nodes", str(nodes), "--players", str(1 + seed % 3), "--chance", str(0 if seed % 2 else 30),
        "--outcomes", "30", "--payoff-range", "2", "--seed", str(seed), "-o", str(game))
    info = json.loads(run("efg", "info", str(game), "--json"))
    ties = ["first", "last", "friendly", "antagonistic"][seed % 4]
    solved = json.loads(run("efg", "solve", str(game), "--ties", ties, "--json", "--root-only"))
    for budget in (10_000, 1 + seed * 3):
        args = ["efg", "draw", str(game), "--ties", ties, "--draw-nodes", str(budget), "--spe", "--json"]
        if seed % 3 == 0:
            args += ["--horizontal", "--values"]
        report = json.loads(run(*args))
        assert report["drawn_nodes"] <= budget
        check_tree(report, info["terminal_nodes"], info["nodes"])
        assert [str(v) for v in solved["value"]] == report["value"]
        assert report["nodes"][0]["value"] == report["value"]


def test_dinner_tree_is_the_solved_dinner():
    morsels = "1,6 2,14 3,10 4,3"
    report = json.loads(run("dinner", "tree", "--morsels", morsels, "--order", "ABAB", "--spe", "--json"))
    solved = json.loads(run("dinner", "solve", "--morsels", morsels, "--order", "ABAB", "--method", "exact",
                            "--ties", "first", "--json"))
    assert report["value"] == [str(v) for v in solved["scores"]]
    # 4 morsels: 1 + 4 + 12 + 24 + 24 nodes, 24 plays.
    check_tree(report, 24, 65)
    assert report["spe_outcomes"] and all(n["spe"] == (n["value"] in report["spe_outcomes"])
                                          for n in report["nodes"] if n["kind"] == "terminal" and n["on_path"])
    small = json.loads(run("dinner", "tree", "--morsels", morsels, "--order", "ABAB", "--draw-nodes", "20", "--json"))
    check_tree(small, 24, 65)
    assert small["folded"] > 0


def test_tree_requests_refuse_bad_input():
    bad = subprocess.run([LASTBITE, "dinner", "tree", "--morsels", "1,2 2,1", "--draw-nodes", "0", "--json"],
                         capture_output=True, text=True)
    assert bad.returncode != 0 and "draw_nodes" in bad.stderr.replace("-", "_") and "panick" not in bad.stderr
    bad = subprocess.run([LASTBITE, "dinner", "tree", "--morsels", "1,2 2,1", "--ties", "fair", "--json"],
                         capture_output=True, text=True)
    assert bad.returncode != 0 and len(bad.stderr.strip().splitlines()) == 1
    assert "expected index, friendly" in bad.stderr
    bad = subprocess.run([LASTBITE, "efg", "draw", str(ENTRY)], capture_output=True, text=True)
    assert bad.returncode != 0 and "--svg" in bad.stderr


def test_tree_snapshots(tmp_path):
    """The entry game's tree, SVG and TikZ, byte for byte."""
    SNAPSHOTS.mkdir(exist_ok=True)
    svg, tikz = tmp_path / "t.svg", tmp_path / "t.tikz"
    run("efg", "draw", str(ENTRY), "--spe", "--values", "--svg", str(svg), "--tikz", str(tikz))
    for made, name in ((svg, "entry-tree.svg"), (tikz, "entry-tree.tikz")):
        want = SNAPSHOTS / name
        if os.environ.get("LASTBITE_BLESS"):
            want.write_text(made.read_text())
        assert made.read_text() == want.read_text(), f"{name} changed (LASTBITE_BLESS=1 rewrites it)"


def svg_texts(svg):
    """The SVG's texts, typographic dashes as LaTeX writes them."""
    texts = [html.unescape(t) for t in re.findall(r"<text[^>]*>(.*?)</text>", svg)]
    return [t.replace("\u2013", "--") for t in texts]


def tikz_texts(tikz):
    return re.findall(r"\\node\[[^\]]*\] at \([^)]*\) \{(.*)\};", tikz)


def latex_plain(text):
    """lastbite's LaTeX escapes undone, for comparing texts."""
    for a, b in ((r"\textbackslash{}", "\\"), (r"\textasciicircum{}", "^"), (r"\textasciitilde{}", "~"),
                 (r"\textless{}", "<"), (r"\textgreater{}", ">"), (r"\textbar{}", "|")):
        text = text.replace(a, b)
    return re.sub(r"\\([{}$&#_%])", r"\1", text)


PICTURES = {
    "dinner-plot": ["dinner", "plot", "--morsels", "1,6 2,14 3,10 4,3 5,7 6,5"],
    "dinner-board": ["dinner", "board", "--morsels", "1,6 2,14 3,10 4,3 5,7 6,5", "--remove", "1"],
    "dinner-balance": ["dinner", "balance", "--max-size", "8", "--trials", "5"],
    "subtraction-figure1": ["subtraction", "plot", "figure1", "--max", "20"],
    "subtraction-figure2": ["subtraction", "plot", "figure2", "--max", "12"],
    "subtraction-heatmap": ["subtraction", "plot", "heatmap", "--set", "2,5,7", "--max-heap", "60"],
    "tokens-seats": ["tokens", "seats", "--max-players", "4", "--stacks", "6"],
    "tokens-board": ["tokens", "--stacks", "10", "--players", "3"],
    "tokens-clock": ["tokens", "--stacks", "12", "--players", "4", "--clock", "--at", "3,9"],
    "efg-draw": ["efg", "draw", str(ENTRY), "--spe", "--horizontal", "--values"],
    "dinner-tree": ["dinner", "tree", "--morsels", "1,2 2,3 3,1", "--order", "ABA", "--draw-nodes", "9"],
}


@needs_pdflatex
@pytest.mark.parametrize("name", sorted(PICTURES))
def test_every_picture_compiles_as_tikz_with_the_svgs_texts(name, tmp_path):
    svg, doc, pic = tmp_path / "p.svg", tmp_path / "p.tex", tmp_path / "p.tikz"
    run(*PICTURES[name], "--svg", str(svg), "--tikz-standalone", str(doc), "--tikz", str(pic))
    s, t = svg.read_text(), pic.read_text()
    assert doc.read_text().count(t) == 1  # the document wraps the same picture
    assert [latex_plain(x) for x in tikz_texts(t)] == svg_texts(s)
    shapes = len(re.findall(r"<(line|circle|polyline|polygon|rect) ", s)) - s.count('width="100%"')
    assert t.count("\\path[") == shapes + 1  # and the bounding box
    compile_tex(doc.read_text(), tmp_path)


def test_cli_help_lists_tikz_for_pictures():
    out = run("tokens", "seats", "--help")
    assert "--tikz " in out and "--tikz-standalone" in out


# Python: trees of games written in Python, and reports in notebooks.


def test_draw_tree_of_a_python_game_with_chance_and_hostile_labels(tmp_path):
    lastbite = pytest.importorskip("lastbite")
    from fractions import Fraction

    evil = "<script>alert(1)</script>}\\input{/etc/passwd}"

    class Dice:
        players = 2

        def root(self):
            return "start"

        def to_move(self, s):
            if s == "start":
                return 0
            if s in ("bet", "fold"):
                return lastbite.CHANCE if s == "bet" else None
            return None

        def moves(self, s):
            return ["bet", evil]

        def play(self, s, m):
            if s == "start":
                return "bet" if m == "bet" else "fold"
            return ("roll", m)

        def chance_outcomes(self, s):
            return [(1, Fraction(1, 3)), (2, Fraction(2, 3))]

        def terminal_payoffs(self, s):
            if s == "fold":
                return (0, 0)
            return (3 * s[1] - 4, 4 - 3 * s[1])

    t = lastbite.draw_tree(Dice(), spe=True, values=True, title=evil)
    assert isinstance(t, dict) and t["total_leaves"] == 3 and t["drawn_nodes"] == 5
    # Betting is worth 1/3 (3 - 4) + 2/3 (6 - 4) = 1 to A: she bets.
    assert t["value"] == ["1", "-1"] and t["path"] == ["bet"]
    kinds = [n["kind"] for n in t["nodes"]]
    assert kinds.count("chance") == 1 and kinds.count("terminal") == 3
    assert sorted(n["probability"] for n in t["nodes"] if n["probability"]) == ["1/3", "2/3"]
    assert "<script>" not in t.svg and "&lt;script&gt;" in t.svg
    assert "<script>" not in t._repr_html_()
    tikz = t.tikz()
    assert "\\input{" not in tikz and "\\textbackslash{}input\\{/etc/passwd\\}" in tikz
    t.save(tmp_path / "dice.svg")
    t.save(tmp_path / "dice.tex")
    assert (tmp_path / "dice.svg").read_text() == t.svg
    if PDFLATEX:
        compile_tex((tmp_path / "dice.tex").read_text(), tmp_path)
    with pytest.raises(ValueError):
        t.save(tmp_path / "dice.pdf")
    with pytest.raises(lastbite.Error, match="draw_nodes"):
        lastbite.draw_tree(Dice(), draw_nodes=0)
    sol = lastbite.solve(Dice())
    assert "lastbite Solution" in sol._repr_html_() and "<script>" not in sol._repr_html_()
    assert sol.ties == "first"


def test_reports_are_dicts_shown_as_escaped_html():
    lastbite = pytest.importorskip("lastbite")
    evil = "<img src=x onerror=alert(1)>"
    data = f'EFG 2 R "{evil}" {{ "A" "B" }}\n""\np "" 1 1 "" {{ "{evil}" "R" }} 0\nt "" 1 "" {{ 1, 2 }}\nt "" 2 "" {{ 3, 1 }}\n'
    r = lastbite.efg.solve(data=data)
    assert isinstance(r, dict) and json.loads(json.dumps(r)) == r
    page = r._repr_html_()
    assert "<img" not in page and "&lt;img" in page
    d = lastbite.efg.draw(data=data, spe=True)
    assert type(d).__name__ == "Tree" and "<img" not in d._repr_html_().replace("<svg", "")
    b = lastbite.dinner.board(morsels="1,2 2,3 3,1", picture=True)
    assert b._repr_svg_().startswith("<svg") and "\\begin{tikzpicture}" in b.tikz()
    assert lastbite.dinner.solve(morsels="1,2 2,1")._repr_svg_() is None


@needs_pdflatex
def test_example_paper_inputs_a_table_and_a_tree(tmp_path):
    """examples/latex: build.sh writes the table and the tree, pdflatex compiles the paper."""
    import shutil

    examples = Path(__file__).parents[2] / "examples"
    shutil.copytree(examples / "latex", tmp_path / "latex")
    shutil.copytree(examples / "efg", tmp_path / "efg")
    out = subprocess.run(["sh", str(tmp_path / "latex" / "build.sh")], capture_output=True, text=True,
                         env={**os.environ, "LASTBITE": os.path.abspath(LASTBITE)}, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    log = (tmp_path / "latex" / "paper.log").read_text(errors="replace")
    assert (tmp_path / "latex" / "paper.pdf").stat().st_size > 10_000
    assert "undefined" not in log.lower()
    assert "\\begin{tikzpicture}" in (tmp_path / "latex" / "entry-tree.tikz").read_text()


def test_the_token_board_shows_the_equilibrium_and_its_territories(tmp_path):
    svg = tmp_path / "b.svg"
    report = json.loads(run("tokens", "--stacks", "10", "--players", "3", "--json", "--svg", str(svg)))
    text = svg.read_text()
    assert report["svg"] == text
    for t, (stack, share) in enumerate(zip(report["moves"], report["payoffs"])):
        assert f"stack {stack}, share ${share}<" in text
    bad = subprocess.run([LASTBITE, "tokens", "--on-grids", "--svg", str(svg)], capture_output=True, text=True)
    assert bad.returncode != 0 and "board" in bad.stderr and "--svg" in bad.stderr


def test_formats_through_the_python_package(tmp_path):
    lastbite = pytest.importorskip("lastbite")
    tex = lastbite.cookie.critical(max_size=5, format="latex")
    assert tex.startswith("\\begin{table}") and tex == run("cookie", "critical", "--max-size", "5", "--latex")
    tikz = lastbite.dinner.board(morsels="1,2 2,3 3,1", format="tikz")
    svg = tmp_path / "b.svg"
    run("dinner", "board", "--morsels", "1,2 2,3 3,1", "--svg", str(svg))
    assert tikz == lastbite.tikz(svg.read_text())
    assert lastbite.dinner.solve(morsels="1,2 2,1", format="text").strip()
    with pytest.raises(lastbite.Error, match="no table"):
        lastbite.subtraction.outcome(set="1,2", heap=3, format="latex")
    with pytest.raises(lastbite.Error, match="format"):
        lastbite.cookie.critical(max_size=5, format="docx")


def test_draw_tree_of_a_solved_openspiel_game():
    lastbite = pytest.importorskip("lastbite")
    pytest.importorskip("pyspiel")
    import lastbite.openspiel as los
    import pyspiel

    game = pyspiel.load_game("tic_tac_toe")
    sol = los.solve(game)
    t = lastbite.draw_tree(sol, draw_nodes=60)
    assert t["title"] == "Tic Tac Toe" and t["drawn_nodes"] <= 60 and t["folded"] > 0
    assert t["total_leaves"] == 255168  # the known number of tic-tac-toe games
    assert t["value"] == [str(v) for v in sol.value()] == ["0", "0"]
    drawn = sum(n["kind"] == "terminal" for n in t["nodes"])
    assert drawn + sum(n["hidden_leaves"] for n in t["nodes"] if n["kind"] == "folded") == 255168


def test_tree_draws_the_exact_solvers_path_under_index():
    """`dinner tree` draws the index rule by default: its equilibrium path is the eating
    order of `dinner solve --method exact`, and its value the scores."""
    for morsels, order in [("1,8 2,3 3,6 4,4 5,1 6,2 7,5 8,7", "ABABABAB"), ("3,1 2,2 0,3 1,0 5,5", "ABBAB")]:
        tree = json.loads(run("dinner", "tree", "--morsels", morsels, "--order", order, "--json"))
        solved = json.loads(run("dinner", "solve", "--morsels", morsels, "--order", order, "--method", "exact", "--json"))
        assert tree["ties"] == "index" and solved["eating_order_rule"] == "ties"
        assert [int(v) for v in tree["value"]] == solved["scores"]
        assert [int(label.split()[0][1:]) for label in tree["path"]] == [b["morsel"] for b in solved["eating_order"]]
