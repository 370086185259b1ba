"""as_numpy=True against the plain report: every list of records comes back as a dict of
NumPy arrays (one per field, nested as the records are) and every list of integers as an
int64 array, holding exactly the plain report's values; exact fractions and integers past
64 bits stay exact (object columns)."""

import random
from fractions import Fraction

import numpy as np
import pytest

import lastbite
from lastbite import Ragged


def is_record_list(x):
    return isinstance(x, list) and x and all(isinstance(v, dict) for v in x)


def is_int_list(x):
    return isinstance(x, list) and x and all(isinstance(v, int) and not isinstance(v, bool) for v in x)


def check_column(values, col):
    """The column `col` holds `values`, one per row."""
    if isinstance(col, dict):
        keys = set(col)
        for v in values:
            if v is not None:
                assert set(v) <= keys
        for k, sub in col.items():
            check_column([None if v is None else v.get(k) for v in values], sub)
        return
    if isinstance(col, Ragged):
        assert col.values.dtype == np.int64 and col.offsets.dtype == np.int64
        assert col.tolist() == values
        return
    assert isinstance(col, np.ndarray), type(col)
    assert len(col) == len(values)
    if col.dtype == np.int64:
        assert col.tolist() == values
    else:
        assert col.dtype == object
        assert list(col) == values


def check(plain, columns):
    if is_record_list(plain):
        assert isinstance(columns, dict), type(columns)
        keys = {k for row in plain for k in row}
        assert keys == set(columns), (keys, set(columns))
        for k in keys:
            check_column([row.get(k) for row in plain], columns[k])
    elif is_int_list(plain):
        assert isinstance(columns, np.ndarray) and columns.dtype == np.int64
        assert columns.tolist() == plain
    elif isinstance(plain, list):
        assert isinstance(columns, list) and len(columns) == len(plain)
        for a, b in zip(plain, columns):
            check(a, b)
    elif isinstance(plain, dict):
        assert isinstance(columns, dict) and set(columns) == set(plain)
        for k in plain:
            check(plain[k], columns[k])
    else:
        assert type(plain) is type(columns) and plain == columns, (plain, columns)


def both(f, **request):
    plain = f(**request)
    columns = f(as_numpy=True, **request)
    check(plain, columns)
    return plain, columns


@pytest.mark.parametrize("seed", range(10))
def test_subtraction_tables(seed):
    rng = random.Random(seed)
    s = sorted(rng.sample(range(1, 15), rng.randint(1, 5)))
    plain, cols = both(lastbite.subtraction.table, set=s, max_heap=rng.randint(0, 300))
    rows = cols["rows"]
    # Outcomes are pairs: a 2-D array; PSPE moves vary in number: Ragged.
    assert rows["FvF"]["outcome"].shape == (len(plain["rows"]), 2)
    assert isinstance(rows["AvA"]["moves"], Ragged)
    assert rows["heap"].tolist() == list(range(len(plain["rows"])))
    both(lastbite.subtraction.scan, size=2, max=8 + seed)
    both(lastbite.subtraction.period, set=s)


def test_cookie_tables_keep_big_counts_exact():
    plain, cols = both(lastbite.cookie.table, max_n=80)
    counts = cols["counts"]["count"]
    # Central binomials past 2^63: the column holds Python ints, exactly.
    assert counts.dtype == object and max(counts) > 2**63
    small, cols = both(lastbite.cookie.table, max_n=12)
    assert cols["counts"]["count"].dtype == np.int64
    both(lastbite.cookie.nim, max_n=12)
    both(lastbite.cookie.general, max_n=9)
    both(lastbite.cookie.critical, max_n=6)


@pytest.mark.parametrize("seed", range(6))
def test_dinner_reports_with_fractions(seed):
    rng = random.Random(50 + seed)
    rows = [tuple(Fraction(rng.randint(-5, 9), rng.choice([1, 2, 3])) for _ in range(2)) for _ in range(rng.randint(2, 8))]
    plain, cols = both(lastbite.dinner.solve, morsels=rows, method="exact", all=True)
    both(lastbite.dinner.board, morsels=rows)
    both(lastbite.dinner.experiment, size=6, trials=30, seed=seed)
    both(lastbite.dinner.pareto, size=4)


@pytest.mark.parametrize("seed", range(4))
def test_efg_and_tokens(seed):
    text = lastbite.efg.random(nodes=30 + seed * 10, players=1 + seed % 3, seed=seed)["efg"]
    both(lastbite.efg.solve, data=text, all=True, explain=True)
    both(lastbite.efg.info, data=text)
    both(lastbite.tokens.solve, values=[1, Fraction(5, 2), 3, 7], players=1 + seed % 3, clock=bool(seed % 2))
    both(lastbite.tokens.seats, stacks=5, max_players=3)


def test_arrays_own_their_memory_and_are_writable():
    cols = lastbite.subtraction.table(set=[1, 2], max_heap=10, as_numpy=True)
    heap = cols["rows"]["heap"]
    heap[0] = 99  # a copy of the library's buffer, the user's to change
    assert heap[0] == 99


def test_numpy_rows_are_accepted_wherever_rows_of_numbers_are():
    rows = [(1, 2), (2, 3), (3, 1)]
    want = lastbite.dinner.solve(morsels=rows, order="ABA")
    assert lastbite.dinner.solve(morsels=np.array(rows), order="ABA") == want
    # Floats are taken exactly, as plain floats are.
    halves = lastbite.dinner.solve(morsels=np.array([[0.5, 1.0], [1.5, 0.25]]))
    assert halves == lastbite.dinner.solve(morsels=[[0.5, 1.0], [1.5, 0.25]])
    # NumPy scalars where one number goes.
    assert lastbite.dinner.solve(morsels=rows, order="ABA", discount=np.float64(0.5)) == \
        lastbite.dinner.solve(morsels=rows, order="ABA", discount=Fraction(1, 2))
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(rows, columns=["alice", "bob"])
    assert lastbite.dinner.solve(morsels=frame, order="ABA") == want


def test_a_missing_required_field_is_named_as_required():
    with pytest.raises(lastbite.Error, match=r"no heap given \(heap\)"):
        lastbite.subtraction.outcome(set=[4, 5])
