"""lastbite.sweeps on a real Dask LocalCluster (2 worker processes on 127.0.0.1): the
result equals the single-process CLI's byte for byte; a killed client loses nothing on
rerun; a worker killed mid-task has its shard rerun; a shard that raises is reported with
its shard number while the others finish."""

import glob
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

distributed = pytest.importorskip("distributed")

import lastbite.sweeps as sweeps  # noqa: E402

LASTBITE = os.environ.get("LASTBITE_BIN", "target/release/lastbite")


def cli_json(*args):
    out = subprocess.run([LASTBITE, *args, "--json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None,
    )
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_the_documented_call_equals_the_cli_byte_for_byte(client, tmp_path):
    store = tmp_path / "runs" / "c4"
    doc = sweeps.run("subtraction.conjecture", {"conjecture": 4, "sizes": [4], "max": 31},
                     client=client, store=str(store), progress=False, as_json=True)
    assert doc == cli_json("subtraction", "conjecture", "4", "--sizes", "4", "--max", "31")
    report = json.loads(doc)
    assert report["verdict"] == "fails"
    assert report["counterexamples"][0]["set"] == report["counterexample"]["set"]
    assert len(glob.glob(str(store / "shard-*.json"))) == 64
    # The dict form is the command function's report.
    again = sweeps.run("subtraction.conjecture", {"conjecture": 4, "sizes": [4], "max": 31},
                       client=client, store=str(store), progress=False)
    assert again == lastbite_call("subtraction", "conjecture", statement="4", sizes=[4], max=31)
    # A stored shard changed since it was written (a digit edited) is refused, named.
    first = sorted(glob.glob(str(store / "shard-*.json")))[0]
    text = open(first, encoding="utf-8").read()
    open(first, "w", encoding="utf-8").write(text.replace('"shard":1,', '"shard":2,'))
    with pytest.raises(sweeps.Error, match=r"cannot use .*shard-00001-of-00064\.json: .*checksum"):
        sweeps.run("subtraction.conjecture", {"conjecture": 4, "sizes": [4], "max": 31},
                   client=client, store=str(store), progress=False)


def lastbite_call(family, command, **request):
    import lastbite

    return getattr(getattr(lastbite, family), command)(**request)


@pytest.mark.parametrize("command,request_,args", [
    ("dinner.experiment", {"size": 9, "trials": 300, "seed": 3},
     ["dinner", "experiment", "--size", "9", "--trials", "300", "--seed", "3"]),
    ("dinner.balance", {"max_size": 20, "trials": 30},
     ["dinner", "balance", "--max-size", "20", "--trials", "30"]),
    ("dinner.pareto", {"size": 8}, ["dinner", "pareto", "--size", "8"]),
    ("cookie.general", {"max_size": 12}, ["cookie", "general", "--max-size", "12"]),
    ("tokens.anywhere", {"players": 4, "clock": True},
     ["tokens", "anywhere", "--players", "4", "--clock"]),
    ("dinner.discount", {"discount": "1", "search": True, "max_size": 7},
     ["dinner", "discount", "--discount", "1", "--search", "--max-size", "7"]),
    ("dinner.multiplicity", {"size": 7, "trials": 40},
     ["dinner", "multiplicity", "--size", "7", "--trials", "40"]),
    ("subtraction.plot", {"figure": "figure2", "max": 16},
     ["subtraction", "plot", "figure2", "--max", "16"]),
    ("subtraction.problems", {"sizes": [2, 3], "max": 14},
     ["subtraction", "problems", "--sizes", "2,3", "--max", "14"]),
    ("dinner.fairness", {"trials": 30, "size": 6, "players": 3},
     ["dinner", "fairness", "--trials", "30", "--size", "6", "--players", "3"]),
    ("dinner.best_order", {"size": 11, "play": "strategic"},
     ["dinner", "best-order", "--size", "11", "--play", "strategic"]),
    ("dinner.strategic_fairness", {"question": "three-agents", "items": 7, "strict_items": 4},
     ["dinner", "strategic-fairness", "--question", "three-agents", "--items", "7",
      "--strict-items", "4"]),
])
def test_every_sweep_kind_equals_the_cli(client, command, request_, args):
    for shards in (1, 5):
        doc = sweeps.run(command, request_, client=client, progress=False, shards=shards,
                         as_json=True)
        assert doc == cli_json(*args)


def test_scan_equals_the_cli_records(client):
    report = sweeps.run("subtraction.scan", {"triples": 10}, client=client, progress=False,
                        shards=7)
    out = subprocess.run([LASTBITE, "subtraction", "scan", "--triples", "10"],
                         capture_output=True, text=True, check=True).stdout
    cli = [json.loads(line) for line in out.splitlines()]
    assert [dict(r) for r in report["records"]] == cli


KILLED_RUN = """
import sys, lastbite.sweeps as s
s.run("subtraction.conjecture", {"statement": "4", "sizes": [5], "max": 36},
      client=s.InProcess(), store=sys.argv[1], progress=False, shards=40)
"""


def test_a_killed_client_loses_nothing(client, tmp_path):
    store = tmp_path / "c4"
    p = subprocess.Popen([sys.executable, "-c", KILLED_RUN, str(store)])
    deadline = time.time() + 120
    while len(glob.glob(str(store / "shard-*.json"))) < 5:
        assert p.poll() is None, "the run ended before it could be killed"
        assert time.time() < deadline
        time.sleep(0.02)
    p.send_signal(signal.SIGKILL)
    p.wait()
    before = {f: (os.stat(f).st_mtime_ns, open(f).read())
              for f in glob.glob(str(store / "shard-*.json"))}
    assert 5 <= len(before) < 40
    # No torn files: every stored shard is a whole document.
    for _, text in before.values():
        json.loads(text)
    ran = []
    original = sweeps._run_shard

    def counting(name, request, index, count):
        ran.append(index)
        return original(name, request, index, count)

    sweeps._run_shard = counting
    try:
        doc = sweeps.run("subtraction.conjecture", {"statement": "4", "sizes": [5], "max": 36},
                         client=sweeps.InProcess(), store=str(store), progress=False,
                         shards=40, as_json=True)
    finally:
        sweeps._run_shard = original
    stored = {int(os.path.basename(f)[6:11]) for f in before}
    assert sorted(ran) == sorted(set(range(1, 41)) - stored), "only the missing shards ran"
    for f, (mtime, text) in before.items():
        assert os.stat(f).st_mtime_ns == mtime and open(f).read() == text
    assert doc == cli_json("subtraction", "conjecture", "4", "--sizes", "5", "--max", "36")


def test_a_store_of_another_sweep_is_refused(tmp_path):
    sweeps.run("dinner.experiment", {"size": 6, "trials": 20}, client=sweeps.InProcess(),
               store=str(tmp_path), progress=False, shards=4)
    with pytest.raises(sweeps.Error, match="holds another sweep"):
        sweeps.run("dinner.experiment", {"size": 6, "trials": 21}, client=sweeps.InProcess(),
                   store=str(tmp_path), progress=False, shards=4)


def test_a_worker_killed_mid_task_is_retried(client, tmp_path):
    store = tmp_path / "c4"
    pids = list(client.run(os.getpid).values())
    result = {}

    def go():
        result["doc"] = sweeps.run(
            "subtraction.conjecture", {"statement": "4", "sizes": [5], "max": 34},
            client=client, store=str(store), progress=False, shards=12, as_json=True)

    t = threading.Thread(target=go)
    t.start()
    deadline = time.time() + 120
    while not glob.glob(str(store / "shard-*.json")):
        assert time.time() < deadline
        time.sleep(0.01)
    # Both workers are busy with their next shards now: kill one mid-task.
    os.kill(pids[0], signal.SIGKILL)
    t.join(300)
    assert not t.is_alive()
    assert result["doc"] == cli_json("subtraction", "conjecture", "4", "--sizes", "5",
                                     "--max", "34")
    client.wait_for_workers(2, timeout=60)


def test_a_failing_shard_is_named_and_the_others_finish(client, tmp_path):
    # A period-search limit of 40 is too small for some pairs: their shards fail.
    with pytest.raises(sweeps.SweepError) as e:
        sweeps.run("subtraction.scan", {"pairs": 8, "limit": 40}, client=client,
                   store=str(tmp_path), progress=False, shards=28)
    failed = e.value.failures
    assert 0 < len(failed) < 28
    assert all("no period with a certificate up to heap 40" in m for m in failed.values())
    assert f"shard {min(failed)}/28" in str(e.value)
    stored = {int(os.path.basename(f)[6:11]) for f in glob.glob(str(tmp_path / "shard-*.json"))}
    assert stored == set(range(1, 29)) - set(failed)


def test_bad_input_is_one_line():
    with pytest.raises(sweeps.Error, match="not a sweep command"):
        sweeps.run("dinner.solve", {}, client=sweeps.InProcess())
    with pytest.raises(sweeps.Error, match="unknown field"):
        sweeps.run("dinner.experiment", {"sizes": 3}, client=sweeps.InProcess())
    with pytest.raises(sweeps.Error, match="size"):
        sweeps.run("dinner.experiment", {"size": 99}, client=sweeps.InProcess())
