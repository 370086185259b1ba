"""The Python package against the CLI (two front ends, one library): every family's
functions give the CLI's --json document on random instances, with exact numbers as
int or Fraction; bad input raises lastbite.Error; Ctrl-C stops a long call."""

import json
import os
import random
import signal
import subprocess
import sys
import time
from fractions import Fraction

import pytest

import lastbite

LASTBITE = os.environ.get("LASTBITE_BIN", "target/release/lastbite")


def cli(*args):
    out = subprocess.run([LASTBITE, *args, "--json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def as_json(x):
    """A Python report in the CLI's JSON form: Fractions as "a/b" strings."""
    if isinstance(x, Fraction):
        return x.numerator if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
    if isinstance(x, list):
        return [as_json(v) for v in x]
    if isinstance(x, dict):
        return {k: as_json(v) for k, v in x.items()}
    return x


def fractions_in(x):
    if isinstance(x, Fraction):
        yield x
    elif isinstance(x, list):
        for v in x:
            yield from fractions_in(v)
    elif isinstance(x, dict):
        for v in x.values():
            yield from fractions_in(v)


def strings_in(x):
    if isinstance(x, str):
        yield x
    elif isinstance(x, list):
        for v in x:
            yield from strings_in(v)
    elif isinstance(x, dict):
        for v in x.values():
            yield from strings_in(v)


def same(py, *args):
    assert as_json(py) == cli(*args), args
    # No exact value is left as a "a/b" string.
    assert not any("/" in s and s.replace("/", "").replace("-", "").isdigit() for s in strings_in(py))


def morsel_text(rows):
    return " ".join(",".join(str(u) for u in row) for row in rows)


@pytest.mark.parametrize("seed", range(12))
def test_dinner_against_the_cli(seed):
    rng = random.Random(seed)
    players = 2 + seed % 2
    n = rng.randint(2, 9)
    rows = [tuple(Fraction(rng.randint(-5, 9), rng.choice([1, 1, 2, 3])) for _ in range(players)) for _ in range(n)]
    text = " ".join(",".join(f"{u.numerator}/{u.denominator}" for u in row) for row in rows)
    order = "".join(rng.choice("ABC"[:players]) for _ in range(n))
    ties = rng.choice(["friendly", "antagonistic", "first", "last"])
    py = lastbite.dinner.solve(morsels=rows, order=order, method="exact", ties=ties, all=True)
    same(py, "dinner", "solve", f"--morsels={text}", "--order", order, "--method", "exact", "--ties", ties, "--all")
    if players == 2:
        same(lastbite.dinner.solve(morsels=rows), "dinner", "solve", f"--morsels={text}")
        same(lastbite.dinner.board(morsels=rows), "dinner", "board", f"--morsels={text}")
    same(lastbite.dinner.play(morsels=rows, order=order, strategies="greedy"),
         "dinner", "play", f"--morsels={text}", "--order", order, "--strategies", "greedy")


def test_dinner_sweeps_against_the_cli():
    same(lastbite.dinner.pareto(size=5), "dinner", "pareto", "--size", "5")
    same(lastbite.dinner.attainable(size=8), "dinner", "attainable", "--size", "8")
    same(lastbite.dinner.experiment(size=8, trials=50, seed=3),
         "dinner", "experiment", "--size", "8", "--trials", "50", "--seed", "3")


@pytest.mark.parametrize("seed", range(10))
def test_subtraction_against_the_cli(seed):
    rng = random.Random(100 + seed)
    s = set(rng.sample(range(1, 12), rng.randint(1, 4)))
    text = ",".join(str(x) for x in sorted(s))
    heap = rng.choice([rng.randint(0, 200), 10 ** rng.randint(19, 37) + rng.randint(0, 999)])
    conv = rng.choice(["FvF", "FvA", "AvF", "AvA"])
    same(lastbite.subtraction.outcome(set=s, heap=heap, convention=conv),
         "subtraction", "outcome", "--set", text, "--heap", str(heap), "--convention", conv)
    same(lastbite.subtraction.table(set=sorted(s), max_heap=60),
         "subtraction", "table", "--set", text, "--max-heap", "60")
    same(lastbite.subtraction.period(set=s), "subtraction", "period", "--set", text)


@pytest.mark.parametrize("seed", range(8))
def test_cookie_and_tokens_against_the_cli(seed):
    rng = random.Random(200 + seed)
    comps = [rng.randint(0, 12) for _ in range(rng.randint(1, 9))]
    same(lastbite.cookie.analyze(components=comps), "cookie", "analyze", *map(str, comps))
    values = [Fraction(rng.randint(0, 9), rng.choice([1, 2])) for _ in range(rng.randint(3, 7))]
    vtext = ",".join(f"{v.numerator}/{v.denominator}" for v in values)
    players = rng.randint(1, 3)
    clock = bool(seed % 2)
    args = ["tokens", "--values", vtext, "--players", str(players)] + (["--clock"] if clock else [])
    same(lastbite.tokens.solve(values=values, players=players, clock=clock), *args)


def test_tables_and_seats_against_the_cli():
    same(lastbite.cookie.table(max_n=12), "cookie", "table", "--max-n", "12")
    same(lastbite.cookie.nim(max_n=10), "cookie", "nim", "--max-n", "10")
    same(lastbite.cookie.general(max_n=10), "cookie", "general", "--max-n", "10")
    same(lastbite.cookie.critical(max_n=6), "cookie", "critical", "--max-n", "6")
    same(lastbite.tokens.seats(stacks=6, max_players=4), "tokens", "seats", "--stacks", "6", "--max-players", "4")


@pytest.mark.parametrize("seed", range(6))
def test_efg_against_the_cli(tmp_path, seed):
    text = lastbite.efg.random(nodes=40 + seed * 10, players=1 + seed % 3, seed=seed)["efg"]
    path = tmp_path / "g.efg"
    path.write_text(text)
    same(lastbite.efg.solve(file=str(path), all=True, explain=True), "efg", "solve", str(path), "--all", "--explain")
    same(lastbite.efg.solve(data=text, ties="A=friendly"), "efg", "solve", str(path), "--ties", "A=friendly")
    same(lastbite.efg.info(file=str(path)), "efg", "info", str(path))


def test_exact_numbers_are_int_or_fraction():
    r = lastbite.dinner.solve(morsels=[(Fraction(1, 3), 2), (Fraction(2, 3), 1)])
    assert r["scores"] == [Fraction(2, 3), 2]
    assert isinstance(r["scores"][0], Fraction) and isinstance(r["scores"][1], int)
    # Floats are converted exactly: 0.1 is a binary fraction, not a tenth.
    r = lastbite.dinner.solve(morsels=[(0.1, 1), (0.25, 2)], order="AB")
    assert r["scores"][0] in (Fraction(0.1), Fraction(1, 4))
    assert Fraction(0.1) != Fraction(1, 10)
    r = lastbite.dinner.solve(morsels=[("0.1", 1), (Fraction(1, 4), 2)], order="AB")
    assert r["scores"][0] in (Fraction(1, 10), Fraction(1, 4))
    # Integers beyond 64 bits stay exact ints.
    r = lastbite.subtraction.outcome(set=[1, 2], heap=2**100 + 7)
    assert r["heap"] == 2**100 + 7 and isinstance(r["outcome"][0], int)
    from decimal import Decimal
    r = lastbite.tokens.solve(values=[Decimal("1.5"), 2, Fraction(7, 3)], players=2)
    assert all(isinstance(x, (int, Fraction)) for x in r["payoffs"])
    assert sum(r["payoffs"]) == Fraction(3, 2) + 2 + Fraction(7, 3)


def test_numbers_and_lists_in_every_form_give_one_report():
    # A number as int, float or text; a list as a Python list or the command line's text.
    same = lambda a, b: json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)
    assert same(lastbite.subtraction.outcome(set=[3, 5], heap=100, takes=[3]),
                lastbite.subtraction.outcome(set="3,5", heap="100", takes="[3]"))
    assert same(lastbite.tokens.solve(values="1,5,3,7", players=2, at="2"),
                lastbite.tokens.solve(values=[1, 5, 3, 7], players=2, at=[2]))
    assert same(lastbite.tokens.anywhere(values=[1, 5, 2, 8], positions=[0, Fraction(1, 3), 2, 2.5],
                                         players=2, clock=True, circumference=3),
                lastbite.tokens.anywhere(values="1,5,2,8", positions="0,1/3,2,5/2",
                                         players=2, clock=True, circumference="3"))
    assert same(lastbite.subtraction.conjecture(statement=4, sizes="2,3", max=8),
                lastbite.subtraction.conjecture(statement="4", sizes=[2, 3], max=8))
    with pytest.raises(lastbite.Error, match="at: item 1"):
        lastbite.tokens.solve(at="5,x")


def test_errors_are_value_errors_with_one_line():
    with pytest.raises(lastbite.Error) as e:
        lastbite.dinner.solve(morsels="1,2 3")
    assert isinstance(e.value, ValueError)
    assert "\n" not in str(e.value)
    # A state space over its budget names max_states (20 morsels: within the work budget).
    with pytest.raises(lastbite.Error, match="max_states"):
        lastbite.dinner.solve(morsels=" ".join(f"{i},{i}" for i in range(20)), method="exact", max_states=1000)
    # 40 morsels are refused by the work budget first, naming max_seconds.
    with pytest.raises(lastbite.Error, match="is over max_seconds 60"):
        lastbite.dinner.solve(morsels=" ".join(f"{i},{i}" for i in range(40)), method="exact", max_states=1000)
    with pytest.raises(lastbite.Error, match="line 1, column 1"):
        lastbite.efg.solve(data="garbage")
    with pytest.raises(TypeError, match="unexpected keyword"):
        lastbite.cookie.analyze(component=[1, 2])
    with pytest.raises(lastbite.Error, match="morsels: a boolean is not a number"):
        lastbite.dinner.solve(morsels=[(True, 1)])
    # Malformed numbers are the library's kind of error, naming the field, never
    # Python's own ValueError or OverflowError.
    for bad, needle in [
        (float("nan"), "morsels: nan is not a number"),
        (float("inf"), "morsels: inf is not a number"),
        ("x", "morsel 0, player 1: 'x' is not a number"),
    ]:
        with pytest.raises(lastbite.Error, match=needle):
            lastbite.dinner.solve(morsels=[(1, bad), (2, 3)])
    with pytest.raises(lastbite.Error, match="an object is not morsels"):
        lastbite.dinner.solve(morsels={"a": 1})
    # A set's elements are distinct: one written twice is refused, as in the CLI.
    with pytest.raises(lastbite.Error, match="element 3 is written twice"):
        lastbite.subtraction.outcome(set=[3, 5, 3], heap=10)
    # The dinner's default rule is among those an unknown rule's error lists.
    with pytest.raises(lastbite.Error, match="expected index, friendly"):
        lastbite.dinner.solve(morsels="1,2 2,3", ties="fair")


@pytest.mark.parametrize("call", [
    # 29 morsels: 2^29 states, several seconds even for the specialised kernel.
    "lastbite.dinner.solve(morsels=' '.join(f'{i},{(i * 7) % 31}' for i in range(29)), method='exact')",
    # Long calls whose inner loops once ran on for tens of seconds after a Ctrl-C, each
    # as large as the default work budget admits.
    "lastbite.dinner.attainable(size=24)",
    "lastbite.dinner.pareto(size=10)",
    "lastbite.cookie.table(max_size=600)",
    "lastbite.subtraction.conjecture(statement='4', sizes=[7], max=28)",
])
def test_ctrl_c_stops_long_calls_at_their_edge_within_a_second(call):
    # The child times itself from the moment Python sees the signal (its handler runs)
    # to the moment the KeyboardInterrupt reaches the caller: the cancellation latency,
    # whatever the machine's load does to process scheduling.
    code = (
        "import lastbite, signal, time\n"
        "seen = []\n"
        "def handler(*_):\n"
        "    seen.append(time.monotonic())\n"
        "    raise KeyboardInterrupt\n"
        "signal.signal(signal.SIGINT, handler)\n"
        "print('start', flush=True)\n"
        "try:\n"
        f"    {call}\n"
        "    print('finished')\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', time.monotonic() - seen[0])\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "start"
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=120)
    assert out.startswith("interrupted"), f"{call}: {out}"
    latency = float(out.split()[1])
    assert latency < 1.0, f"{call}: KeyboardInterrupt {latency:.2f} s after the signal"


def test_every_command_is_reachable():
    names = set(lastbite._lastbite.commands())
    modules = {"dinner": lastbite.dinner, "subtraction": lastbite.subtraction, "cookie": lastbite.cookie,
               "tokens": lastbite.tokens, "efg": lastbite.efg}
    for name in names:
        if name == "reproduce":
            assert callable(lastbite.reproduce)
            continue
        family, cmd = name.split("-", 1)
        cmd = cmd.replace("-", "_")  # best-order is best_order
        assert callable(getattr(modules[family], cmd)), name


def test_older_spellings_are_aliases():
    # Sizes: max_size, with cookie's older max_n; both at once is refused.
    assert lastbite.cookie.critical(max_n=5) == lastbite.cookie.critical(max_size=5)
    with pytest.raises(TypeError, match="older spelling max_n"):
        lastbite.cookie.table(max_n=5, max_size=6)
    # All outcomes: all=True, with tokens' older ties="all".
    new = lastbite.tokens.solve(players=4, all=True)
    old = lastbite.tokens.solve(players=4, ties="all")
    assert new["outcomes"] == old["outcomes"] and len(new["outcomes"]) == 3
    # `at` alone explains, as in every family; the move the equilibrium plays is `chosen`.
    r = lastbite.dinner.solve(morsels="1,2 2,3 3,1", order="ABA", at=[0])
    assert [m["chosen"] for m in r["explanation"]["moves"]] == [True, False]


def test_helpers_are_private():
    assert not hasattr(lastbite, "command")
    assert "command" not in dir(lastbite.dinner)


def test_picking_sequences_match_the_cli():
    dinner = "1,8 2,3 3,6 4,4 5,1 6,2 7,5 8,7"
    assert as_json(lastbite.dinner.sincere(morsels=dinner, compare=True)) == cli("dinner", "sincere", "--morsels", dinner, "--compare")
    assert as_json(lastbite.dinner.manipulate(morsels=dinner, agent="B")) == cli("dinner", "manipulate", "--morsels", dinner, "--agent", "B")
    assert as_json(lastbite.dinner.fairness(morsels=dinner)) == cli("dinner", "fairness", "--morsels", dinner)
    with pytest.raises(lastbite.Error, match="agent"):
        lastbite.dinner.manipulate(morsels=dinner, agent="Z")
    assert as_json(lastbite.dinner.expected(size=6, order="snake")) == cli("dinner", "expected", "--size", "6", "--order", "snake")
    assert as_json(lastbite.dinner.best_order(items=6, counts=[3, 3])) == cli("dinner", "best-order", "--items", "6", "--counts", "3,3")
    assert as_json(lastbite.dinner.best_order(items=6, counts=[3, 3], play="strategic", model="lexicographic")) == cli(
        "dinner", "best-order", "--items", "6", "--counts", "3,3", "--play", "strategic", "--model", "lexicographic"
    )
    assert as_json(lastbite.dinner.expected(items=8, play="strategic")) == cli("dinner", "expected", "--items", "8", "--play", "strategic")
    assert as_json(lastbite.dinner.fairness(morsels="1,2 1,1", order="AB", every_spe=True)) == cli(
        "dinner", "fairness", "--morsels", "1,2 1,1", "--order", "AB", "--every-spe"
    )


def test_tree_reports_give_exact_numbers():
    """A tree's values are int or Fraction, as every other report's exact numbers."""
    from fractions import Fraction

    t = lastbite.dinner.tree(morsels="1,2 2,3 3,1", order="ABA")
    assert t["value"] == [5, 2] and all(type(v) is int for v in t["value"])
    # A random game with chance nodes: values and probabilities, exact.
    text = lastbite.efg.random(nodes=30, players=2, chance=50, seed=3)["efg"]
    d = lastbite.efg.draw(data=text)
    kinds = {n["kind"] for n in d["nodes"]}
    assert "chance" in kinds
    for node in d["nodes"]:
        assert all(isinstance(v, (int, Fraction)) for v in node["value"])
        if node["probability"] is not None:
            assert isinstance(node["probability"], (int, Fraction))


def test_huge_numbers_are_the_librarys_errors_not_pythons():
    # Over Python's 4,300-digit str() limit: converted anyway, and refused by lastbite
    # naming the field and the place, the value shortened.
    big = 10**5000
    for value in (big, Fraction(big, 3)):
        with pytest.raises(lastbite.Error, match=r"morsel 0, player 0: .*\(500[13] characters\)"):
            lastbite.dinner.solve(morsels=[[value, 1], [2, 3]])
    assert lastbite._api._decimal(-(10**9000) - 7) == "-1" + "0" * 8999 + "7"


def test_estimates_and_the_work_budget():
    """estimate=True answers the cost model's estimate without running; a request over
    max_seconds raises lastbite.Error with the estimate, naming max_seconds, before any
    work; raising it as the message says admits the request."""
    import time

    e = lastbite.dinner.best_order(size=24, estimate=True)
    assert e["admitted"] is False and e["unit"] == "sequence steps" and e["seconds"] > 3600
    started = time.monotonic()
    with pytest.raises(lastbite.Error, match="is over max_seconds 60"):
        lastbite.dinner.best_order(size=24)
    assert time.monotonic() - started < 2
    raised = lastbite.dinner.best_order(size=24, max_seconds=int(e["seconds"]) + 1, estimate=True)
    assert raised["admitted"] is True
    small = lastbite.dinner.solve(morsels="1,2 2,1", estimate=True)
    assert small["admitted"] and small["seconds"] < 1
