"""Where the games of a proof run meet, read from its checkpoints (docs/cluster.md, "Cost").

A start joins a proven cycle when its game reaches a state of a decided game: the same state
has the same future. Before any game of an objective is proven, that cannot be watched in a
run, but the games themselves can: this reads the column logs that ``horizon --checkpoint DIR``
keeps for starts still undecided (``start-XXXX.columns.gz``, one state a column) and tells, for
every start, the first column at which its game reaches a state of another start's game, and
which. A start that meets a game which is later proven joins its cycle at that column, so these
meetings are what a run of every start would save once one game of them is proven.

States are told apart as the proof tells them (``SpawnState::key``): the level never counts,
the combo counter only for the score objective.

    python python/benchmarks/meetings.py CHECKPOINT_DIR --objective score [--reference adad]

prints a line a start, then how many met the reference's game (the power-on's, by default) and
how many met any other game, with the medians of the columns they took.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import statistics
import sys
from pathlib import Path
from typing import Iterator, Optional

LOG_NAME = re.compile(r"start-([0-9a-f]{4})\.columns\.gz")


def states(log: Path, combo_counts: bool) -> Iterator[tuple]:
    """The keys of a column log's states, column by column."""
    with gzip.open(log, "rt") as lines:
        for line in lines:
            saved = json.loads(line)["state"]
            board, state = saved["board"], saved["state"]
            yield (
                tuple(board["planes"]),
                tuple(state["current"]),
                tuple(state["next"]),
                state["cycle_position"],
                state["since_wild"],
                state["combo"] if combo_counts else 0,
            )


def first_seen(log: Path, combo_counts: bool) -> dict[tuple, int]:
    """Each state of a game, with the column it was first reached at."""
    seen: dict[tuple, int] = {}
    for column, key in enumerate(states(log, combo_counts)):
        seen.setdefault(key, column)
    return seen


def main(argv: Optional[list[str]] = None) -> int:
    """Prints where each start's game first meets another's (see the module's text)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkpoints", type=Path, help="a horizon --checkpoint folder")
    parser.add_argument("--objective", choices=["survive", "score"], required=True)
    parser.add_argument(
        "--reference", default="adad", help="the start whose game the others are held against"
    )
    args = parser.parse_args(argv)
    combo_counts = args.objective == "score"
    logs = {
        int(match.group(1), 16): path
        for path in sorted(args.checkpoints.glob("start-*.columns.gz"))
        if (match := LOG_NAME.fullmatch(path.name))
    }
    reference = int(args.reference, 16)
    if reference not in logs:
        print(
            f"error: no column log of start {args.reference} in {args.checkpoints}", file=sys.stderr
        )
        return 2
    games = {start: first_seen(path, combo_counts) for start, path in logs.items()}
    ref_game = games[reference]
    print(f"the reference {reference:04x}: {len(ref_game):,} states")
    met_reference, met_any = [], []
    for start, path in logs.items():
        if start == reference:
            continue
        others = [(other, game) for other, game in games.items() if other != start]
        meeting = None  # (column, other start, the other's column)
        ref_column = None
        played = 0
        # One pass over the log: the first meeting with any game, and with the reference's.
        for column, key in enumerate(states(path, combo_counts)):
            played = column + 1
            if meeting is None:
                hit = next(((other, game[key]) for other, game in others if key in game), None)
                if hit is not None:
                    meeting = (column, *hit)
            if ref_column is None and key in ref_game:
                ref_column = column
            if meeting is not None and ref_column is not None:
                break
        if meeting is None:
            print(f"{start:04x}: no other game's state in its {played:,} columns")
        else:
            column, other, their = meeting
            print(
                f"{start:04x}: meets {other:04x}'s game at its column {column:,} ({their:,} there)"
            )
            met_any.append(column)
        if ref_column is not None:
            met_reference.append(ref_column)
            print(f"      meets the reference's game at its column {ref_column:,}")
    sample = len(logs) - 1
    for what, columns in (("the reference's game", met_reference), ("another game", met_any)):
        median = f", after a median of {statistics.median(columns):,.0f} columns" if columns else ""
        print(f"{len(columns)} of {sample} starts meet {what}{median}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
