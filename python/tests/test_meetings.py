"""The meetings of games read from column logs (python/benchmarks/meetings.py)."""

import gzip
import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "meetings.py"


def state(cells: int, place: int, level: int = 0, combo: int = 0) -> dict:
    """A column log's line: a state told apart by its board's first plane and its place."""
    return {
        "state": {
            "board": {"planes": [cells, 0, 0], "heights": [0, 0, 0, 0, 0, 0]},
            "state": {
                "current": [1, 2, 3],
                "next": [4, 5, 6],
                "cycle_position": place,
                "since_wild": 0,
                "level": level,
                "combo": combo,
            },
        },
        "jewels": 3,
        "points": 0,
        "removed": 0,
    }


def write_log(folder: Path, start: int, states: list) -> None:
    with gzip.open(folder / f"start-{start:04x}.columns.gz", "wt") as log:
        for line in states:
            log.write(json.dumps(line) + "\n")


def meetings(folder: Path, objective: str) -> list:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(folder), "--objective", objective],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_a_start_meets_the_reference_where_their_states_agree_but_the_level(tmp_path):
    write_log(tmp_path, 0xADAD, [state(n, n) for n in range(10)])
    # Its third state is the reference's sixth at another level: the level never counts.
    write_log(tmp_path, 0x0001, [state(100, 1), state(101, 2), state(5, 5, level=9)])
    # Its states are none of the others'.
    write_log(tmp_path, 0x0002, [state(200 + n, n) for n in range(4)])
    out = meetings(tmp_path, "score")
    assert out[0] == "the reference adad: 10 states"
    assert "0001: meets adad's game at its column 2 (5 there)" in out
    assert "      meets the reference's game at its column 2" in out
    assert "0002: no other game's state in its 4 columns" in out
    assert out[-2:] == [
        "1 of 2 starts meet the reference's game, after a median of 2 columns",
        "1 of 2 starts meet another game, after a median of 2 columns",
    ]


def test_the_combo_counts_for_the_score_objective_only(tmp_path):
    write_log(tmp_path, 0xADAD, [state(1, 1), state(2, 2)])
    write_log(tmp_path, 0x0003, [state(7, 7), state(2, 2, combo=1)])
    assert "0003: no other game's state in its 2 columns" in meetings(tmp_path, "score")
    assert "0003: meets adad's game at its column 1 (1 there)" in meetings(tmp_path, "survive")


def test_a_folder_without_the_reference_is_refused(tmp_path):
    write_log(tmp_path, 0x0001, [state(1, 1)])
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path), "--objective", "score"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "no column log of start adad" in done.stderr
