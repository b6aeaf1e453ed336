"""`horizon` on a local Ray cluster: the same results as one machine, through a killed worker,
a stopped driver and the refusals."""

import contextlib
import fcntl
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from jewelbot import cluster  # noqa: E402
from jewelbot._jewelbot import HorizonDriver, HorizonWorker  # noqa: E402

CHEAP = ["--ai", "simple", "--starts", "4", "--max-columns", "20000", "--seed", "3"]
# One start of `simple` proven in about 586,000 columns (cycle 0000648364b2de88).
PROVEN = ["--ai", "simple", "--generator-state", "0x01E6", "--max-columns", "700000"]


@pytest.fixture(scope="module")
def local_cluster():
    ray.init(num_cpus=2, log_to_driver=False, include_dashboard=False)
    yield
    ray.shutdown()


def results(path):
    """A results file's header, and its lines by start (without their times)."""
    lines = [json.loads(line) for line in Path(path).read_text().splitlines()]
    by_start = {
        r["generator_state"]: {k: v for k, v in r.items() if k != "seconds"} for r in lines[1:]
    }
    return lines[0], by_start


def test_the_cluster_writes_the_command_s_results(local_cluster, tmp_path, command):
    subprocess.run(
        [command, "horizon", *CHEAP, "--results", tmp_path / "one.jsonl"],
        check=True,
        capture_output=True,
    )
    summary = cluster.horizon(
        *CHEAP,
        results=tmp_path / "cluster.jsonl",
        one_machine=tmp_path / "one.jsonl",
        cpus_per_start=2,
        quiet=True,
    )
    assert summary["starts"] == 4 and summary["undecided"] == 4
    assert summary["columns"] == summary["played"] == 4 * 20000
    assert summary["one_machine_columns"] == 4 * 20000 and summary["one_machine_starts"] == 4
    assert results(tmp_path / "cluster.jsonl") == results(tmp_path / "one.jsonl")
    # Either resumes the other's file: nothing is played again.
    again = subprocess.run(
        [command, "horizon", *CHEAP, "--results", tmp_path / "cluster.jsonl"],
        check=True,
        capture_output=True,
        text=True,
    )
    assert "4 starts were decided by an earlier run" in again.stdout
    resumed = cluster.horizon(*CHEAP, results=tmp_path / "one.jsonl", quiet=True)
    assert resumed["resumed"] == 4 and resumed["columns"] == resumed["played"] == 0


@pytest.fixture(scope="module")
def proven_and_taught():
    """PROVEN's results line, played by one worker in this process, and what it taught."""
    alone = HorizonWorker(PROVEN, HorizonDriver(PROVEN).settings)
    line, taught = alone.play(0x01E6)
    expected = json.loads(line)
    assert expected["outcome"] == "perpetual"
    return expected, taught


@pytest.fixture(scope="module")
def proven_alone(proven_and_taught):
    return proven_and_taught[0]


# A start of `simple` that meets the game of 0x01E6 at its column 58,586: most of a second of
# play, while the game's looks at Python come every 0.1 s.
MEETS = ["--ai", "simple", "--generator-state", "0x00E4", "--max-columns", "60000"]


def meeting(news=None, **options):
    worker = HorizonWorker(MEETS, HorizonDriver(MEETS).settings)
    line, _ = worker.play(0x00E4, news=news, **options)
    return json.loads(line)


def test_a_start_in_play_learns_what_others_decide_meanwhile(proven_and_taught):
    _, taught = proven_and_taught
    assert meeting()["outcome"] == "undecided"
    asked = []

    def news():
        # Nothing at the first look, the proof at the second.
        asked.append(len(asked))
        return [taught] if len(asked) == 2 else []

    met = meeting(news, news_every=0.0)
    assert len(asked) >= 2
    assert (met["outcome"], met["column"]) == ("joined", 58586)
    assert met["cycle"] == proven_and_taught[0]["cycle"]


def test_bad_news_stops_the_game_with_its_error():
    def fails():
        raise ConnectionError("the board is gone")

    with pytest.raises(ConnectionError, match="the board is gone"):
        meeting(fails, news_every=0.0)
    with pytest.raises(RuntimeError, match="not a horizon run's"):
        meeting(lambda: [b"{}"], news_every=0.0)
    with pytest.raises(TypeError, match="callable"):
        meeting("not callable")
    with pytest.raises(ValueError, match="news_every"):
        meeting(list, news_every=-1.0)


def test_progress_hears_the_columns_played_as_the_game_goes():
    heard = []
    line = meeting(progress=heard.append, news_every=0.0)
    assert line["outcome"] == "undecided" and line["columns"] == 60000
    assert len(heard) >= 2 and heard == sorted(heard)
    assert heard[-1] == 60000
    with pytest.raises(TypeError, match="progress must be callable"):
        meeting(progress=60000)


def proven_driver(tmp_path, *cluster_options):
    """The driver proving PROVEN's start, with its checkpoint kept every second."""
    return subprocess.Popen(
        [sys.executable, "-m", "jewelbot.cluster", "horizon", *PROVEN, *cluster_options]
        + ["--results", tmp_path / "r.jsonl", "--checkpoint", tmp_path / "ck"]
        + ["--checkpoint-every", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def descendants(pid):
    """The processes under `pid` (its children, theirs, ...), from /proc."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            # The name in parentheses may hold spaces: the parent's id follows its end.
            fields = stat.read_text().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        below = children.get(todo.pop(), [])
        found += below
        todo += below
    return found


def playing_with_a_checkpoint(tmp_path, under):
    """The processes under `under` playing a start, once the start's checkpoint is kept (only
    this test's: a cluster elsewhere on the machine is left alone)."""
    if not (tmp_path / "ck" / "start-01e6.json").exists():
        return []
    playing = []
    for pid in descendants(under):
        with contextlib.suppress(OSError):
            if b"ray::_play_start" in Path(f"/proc/{pid}/cmdline").read_bytes():
                playing.append(pid)
    return playing


def assert_proves_as_one_machine(tmp_path, expected):
    _, by_start = results(tmp_path / "r.jsonl")
    got = by_start[0x01E6]
    for key in ("outcome", "cycle", "period", "most_jewels", "cycle_start"):
        assert got[key] == expected[key], key
    lines = (tmp_path / "r.jsonl").read_text().splitlines()
    assert len(lines) == 2, "the start was counted twice"


def test_a_killed_worker_s_start_goes_on_from_its_checkpoint(tmp_path, proven_alone):
    """The worker playing the start is killed halfway; Ray plays the task again, which goes on
    from the start's checkpoint and proves what one machine proves."""
    driver = proven_driver(tmp_path, "--num-cpus", "2")
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and time.monotonic() < deadline and driver.poll() is None:
        time.sleep(0.5)
        pids = playing_with_a_checkpoint(tmp_path, driver.pid)
        if pids:
            os.kill(pids[0], signal.SIGKILL)
            killed = pids[0]
    _, err = driver.communicate(timeout=120)
    assert killed is not None, f"no worker was seen playing: {err}"
    assert driver.returncode == 0, err
    assert_proves_as_one_machine(tmp_path, proven_alone)


def test_a_node_that_never_comes_back(tmp_path, proven_alone):
    """The only node with a CPU is lost while it plays the start, and another joins: the start
    is played again there, from the checkpoint the lost node kept."""
    from ray.cluster_utils import Cluster

    nodes = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    try:
        lost = nodes.add_node(num_cpus=1)
        driver = proven_driver(tmp_path, "--address", nodes.address)
        playing = []
        deadline = time.monotonic() + 60
        while not playing and time.monotonic() < deadline and driver.poll() is None:
            time.sleep(0.5)
            playing = playing_with_a_checkpoint(tmp_path, os.getpid())
        assert playing, f"no worker was seen playing: {driver.poll()}"
        nodes.remove_node(lost, allow_graceful=False)
        assert not playing_with_a_checkpoint(tmp_path, os.getpid()), "the lost node's worker lives"
        nodes.add_node(num_cpus=1)
        _, err = driver.communicate(timeout=150)
        assert driver.returncode == 0, err
        assert_proves_as_one_machine(tmp_path, proven_alone)
    finally:
        nodes.shutdown()


# Starts of some seconds each: a stop lands while one is played.
LONGER = ["--ai", "simple", "--starts", "3", "--max-columns", "150000", "--seed", "3"]


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_driver_resumes(tmp_path, stop):
    run = [sys.executable, "-m", "jewelbot.cluster", "horizon", *LONGER, "--num-cpus", "1"]
    run += ["--results", tmp_path / "r.jsonl", "--checkpoint", tmp_path / "ck"]
    driver = subprocess.Popen(run, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if (tmp_path / "r.jsonl").exists() and len(
            (tmp_path / "r.jsonl").read_text().splitlines()
        ) >= 2:
            break
        time.sleep(0.2)
    driver.send_signal(stop)
    _, err = driver.communicate(timeout=60)
    assert driver.returncode == 128 + stop, err
    assert "stopped when asked" in err
    _, partial = results(tmp_path / "r.jsonl")
    assert 1 <= len(partial) < 3
    # The start in flight kept its game where the stop found it, long before its checkpoint
    # was due (every 600 s): the cancel reached the game.
    kept = {int(c.stem.removeprefix("start-"), 16) for c in (tmp_path / "ck").glob("start-*.json")}
    assert kept - set(partial), (kept, err)
    finished = subprocess.run(run, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    # The start that was stopped went on from its checkpoint: this run played fewer columns
    # than the starts it decided took.
    took, played = re.search(
        r"took ([\d,]+) columns, and this run played ([\d,]+)", finished.stdout
    ).groups()
    assert 0 < int(played.replace(",", "")) < int(took.replace(",", "")), finished.stdout
    _, whole = results(tmp_path / "r.jsonl")
    assert len(whole) == 3, "a start was lost"
    lines = (tmp_path / "r.jsonl").read_text().splitlines()
    assert len(lines) == 4, "a start was counted twice"


def test_a_second_driver_on_the_same_file_is_refused(tmp_path):
    results_file = tmp_path / "r.jsonl"
    with open(tmp_path / "r.jsonl.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(RuntimeError, match="another driver"):
            cluster.horizon(*CHEAP, results=results_file, quiet=True)


def test_another_player_or_version_is_refused(tmp_path):
    settings = HorizonDriver(CHEAP).settings
    other = ["--ai", "smart", *CHEAP[2:]]
    with pytest.raises(RuntimeError, match="not the driver's"):
        HorizonWorker(other, settings)
    with pytest.raises(RuntimeError, match="same version"):
        cluster._play_start("a run", CHEAP, settings, "0.0.0-other", 1, 1, None)


def test_a_results_file_of_another_player_is_refused(tmp_path, command):
    results_file = tmp_path / "r.jsonl"
    subprocess.run(
        [command, "horizon", "--ai", "smart", *CHEAP[2:], "--results", results_file],
        check=True,
        capture_output=True,
    )
    with pytest.raises(ValueError, match="other settings"):
        cluster.horizon(*CHEAP, results=results_file, quiet=True)


def test_bad_options():
    with pytest.raises(ValueError, match="--starts"):
        cluster.horizon("--starts", "0", quiet=True)
    with pytest.raises(ValueError, match="unexpected argument"):
        cluster.horizon("--colour", "red", quiet=True)
    with pytest.raises(ValueError, match="cpus_per_start must be at least 1"):
        cluster.horizon(*CHEAP, cpus_per_start=0, quiet=True)
    with pytest.raises(TypeError, match="cpus_per_start must be an int"):
        cluster.horizon(*CHEAP, cpus_per_start=1.5, quiet=True)
    with pytest.raises(ValueError, match="--one-machine .*missing.jsonl"):
        cluster.horizon(*CHEAP, one_machine="missing.jsonl", quiet=True)


def test_a_one_machine_file_that_is_not_results_is_refused(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"horizon": {}}\n{"generator_state": 1}\n')
    with pytest.raises(ValueError, match="line 2: not a results line"):
        cluster.horizon(*CHEAP, one_machine=bad, quiet=True)


REFERENCE = ["--rules", "reference", "--ai", "simple", "--random-share", "0.3"]
REFERENCE += ["--trials", "20", "--replications", "2", "--direct-columns", "500"]
REFERENCE += ["--runs", "2", "--direct-games", "4", "--seed", "5", "--json"]


def test_the_reference_estimate_is_the_command_s(local_cluster, command):
    """Its runs and its direct count as tasks: the command's figures for the same seeds."""
    summary = cluster.horizon(*REFERENCE, quiet=True)
    assert summary["runs"] == 2
    ours = json.loads(summary["report"])
    alone = subprocess.run(
        [command, "horizon", *REFERENCE], check=True, capture_output=True, text=True
    )
    theirs = json.loads(alone.stdout)
    for report in (ours, theirs):
        report.pop("seconds")
    assert ours == theirs
    assert len(ours["estimates"]) == 2 and ours["direct"]["games"] == 4
