"""Proofs past one machine: ``jewelbot horizon`` on a Ray cluster.

``python -m jewelbot.cluster horizon [horizon's options] [--address ADDRESS] [--num-cpus N]``
plays the starts a ``jewelbot horizon`` command line asks for as Ray tasks, one start a task, on
the cluster at ``--address`` (``auto``, ``ray://HOST:10001``) or on a local one started for the
run. ``horizon(...)`` does the same from Python. See ``docs/cluster.md``.

- The results file is ``jewelbot horizon --results``' own: one line a decided start, written by
  the driver alone (a second driver on the same file is refused), resumed by either command.
- What decided starts teach (the states known to lead to a proven cycle or a game over) is
  pinned on the run's board that the starts read as they begin and, every few seconds, as they
  play: a start stops as soon as it meets such a state. The starts say there too how far they
  have gone, for the progress line's columns a second.
- Each start keeps its checkpoint in ``--checkpoint DIR`` (on storage every node reads): a task
  retried after its worker or node is lost goes on from it.
- A worker whose player is not the driver's (another version of the package, another build)
  is refused with a message.
- Under the reference rules (``--rules reference``) nothing repeats and ``horizon`` estimates
  the mean life instead: each of its runs (``--runs``), and its direct count
  (``--direct-games``), is a task, and the report is the command's for the same seeds.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import signal
import sys
import threading
import time
import uuid
from collections import deque
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Optional

from jewelbot import __version__
from jewelbot._jewelbot import (
    HorizonDriver,
    HorizonWorker,
    ReferenceEstimate,
    horizon_estimates,
    horizon_help,
)

#: Times Ray plays a start again after its worker process or node is lost.
RETRIES = 3

#: Seconds between two progress lines.
PROGRESS_EVERY = 10.0

#: Seconds the driver waits for a start to end before it looks for a stop again.
LOOK_EVERY = 0.5

#: Seconds the starts in flight have, when the driver is stopped, to keep their checkpoints.
STOP_GRACE = 30.0


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as error:
        raise ImportError(
            "the cluster driver needs Ray: pip install 'ray==2.60.0' (or ./python[cluster])"
        ) from error
    return ray


def columns_played(result: dict) -> int:
    """The columns a start's game was played for, from its results line: to its repeat and one
    more period (a proof), to the state it met (joined), to its game over, or all it was given."""
    outcome = result["outcome"]
    if outcome == "perpetual":
        return int(result["cycle_start"]) + 2 * int(result["period"])
    if outcome in ("joined", "game_over"):
        return int(result["column"])
    return int(result["columns"])


def one_machine_columns(path: os.PathLike[str] | str) -> dict[int, int]:
    """The columns each start of a results file was played for, by start: a file of
    ``jewelbot horizon --results`` on one machine, to compare the cluster's columns with."""
    try:
        lines = Path(path).read_text().splitlines()
    except OSError as error:
        raise ValueError(f"--one-machine {os.fspath(path)}: {error.strerror}") from None
    columns: dict[int, int] = {}
    for number, line in enumerate(lines[1:], start=2):
        try:
            result = json.loads(line)
            columns[int(result["generator_state"])] = columns_played(result)
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(
                f"--one-machine {os.fspath(path)}, line {number}: not a results line ({error})"
            ) from None
    return columns


def flags(options: dict[str, Any]) -> list[str]:
    """``horizon``'s words from keyword options: ``every_start=True`` is ``--every-start``,
    ``max_columns=5000`` is ``--max-columns 5000``; ``False`` and ``None`` are left out."""
    words: list[str] = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if value is True:
            words.append(flag)
        elif value is False or value is None:
            continue
        else:
            words += [flag, os.fspath(value) if isinstance(value, os.PathLike) else str(value)]
    return words


@contextlib.contextmanager
def _only_writer(results: Optional[Path]) -> Iterator[None]:
    """Holds the results file's lock for the run: a second driver on it is refused."""
    if results is None:
        yield
        return
    lock_path = results.with_name(results.name + ".lock")
    with open(lock_path, "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RuntimeError(
                f"another driver is writing {results} (it holds {lock_path}): "
                "one driver a results file"
            ) from None
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


class RunBoard:
    """What the run's decided starts taught, in the order they were decided, and how far the
    starts in play have gone: the driver pins each start's lessons up, and the starts in play
    read what is new every ``NEWS_EVERY`` seconds, and say the columns they have played. A Ray
    actor on the driver's node, which lives as long as the run."""

    def __init__(self) -> None:
        self._lessons: list[Any] = []
        self._played: dict[str, int] = {}

    def pin(self, wrapped: list[Any]) -> int:
        """Adds a start's lessons (an ObjectRef, in a list so that Ray passes the reference,
        not the bytes); returns how many the board holds."""
        self._lessons += wrapped
        return len(self._lessons)

    def since(self, read: int) -> list[Any]:
        """The lessons after the first ``read`` (ObjectRefs)."""
        return self._lessons[read:]

    def reached(self, game: str, columns: int) -> None:
        """A game of a start (one task's try: a retried start plays a new one) has played
        ``columns`` columns, not counting those of the checkpoint it resumed from."""
        self._played[game] = columns

    def played(self) -> int:
        """The columns the run's games have played so far, decided or in play."""
        return sum(self._played.values())


#: Seconds between two looks of a start in play at the run's board.
NEWS_EVERY = 5.0


class _Learning:
    """A worker process's player for a run, and how many of the board's lessons it took in."""

    def __init__(self, worker: HorizonWorker) -> None:
        self.worker = worker
        self.read = 0

    def news(self, ray: Any, board: Any) -> list[bytes]:
        """The lessons pinned on the board since the last look."""
        lessons = ray.get(ray.get(board.since.remote(self.read)))
        self.read += len(lessons)
        return lessons


# One player a worker process, built once for the run: what it learned stays between tasks.
_learning: dict[tuple[str, tuple[str, ...], str, int], _Learning] = {}


def _play_start(
    run: str,
    words: Sequence[str],
    settings: str,
    version: str,
    start: int,
    threads: int,
    board: Any,
) -> tuple[int, Optional[str], bytes, int]:
    """A Ray task: plays one start on this worker, after learning what the board holds, and
    learns more as the board grows; returns the start, its results line, what it taught and
    the columns it played. Its game and its decisions run on ``threads`` threads (the
    task's CPUs), not on every core of the node, which the node's other tasks share."""
    _check_version(version)
    ray = _import_ray()
    key = (run, tuple(words), settings, threads)
    if key not in _learning:
        _learning.clear()  # an earlier run's player is not needed again
        _learning[key] = _Learning(HorizonWorker(list(words), settings, threads=threads))
    learning = _learning[key]
    for lessons in learning.news(ray, board):
        learning.worker.learn(lessons)
    game = uuid.uuid4().hex
    played = [0]

    def reached(columns: int) -> None:
        played[0] = columns
        board.reached.remote(game, columns)

    line, taught = learning.worker.play(
        start, news=lambda: learning.news(ray, board), news_every=NEWS_EVERY, progress=reached
    )
    return start, line, taught, played[0]


def _check_version(version: str) -> None:
    if version != __version__:
        raise RuntimeError(
            f"this worker runs jewelbot {__version__} and the driver {version}: "
            "install the same version on every node"
        )


def _estimate_part(words: Sequence[str], version: str, part: Any) -> Optional[bytes]:
    """A Ray task: one run of the reference rules' estimate (``part``: its number), or its
    direct count (``part``: ``"direct"``)."""
    _check_version(version)
    estimating = ReferenceEstimate(list(words))
    if part == "direct":
        return estimating.direct()
    return estimating.estimate(int(part))


def _estimate(ray: Any, argv: list[str], quiet: bool) -> dict:
    """The reference rules' estimate, its runs and its direct count as tasks."""
    estimating = ReferenceEstimate(argv)
    task = ray.remote(max_retries=RETRIES, retry_exceptions=False)(_estimate_part)
    began = time.monotonic()
    runs = [task.remote(argv, __version__, run) for run in range(estimating.runs)]
    direct = task.remote(argv, __version__, "direct") if estimating.counts_directly else None
    try:
        estimates = ray.get(runs)
        counted = ray.get(direct) if direct is not None else None
    except ray.exceptions.RayTaskError as error:
        raise RuntimeError(str(error.cause)) from None
    seconds = time.monotonic() - began
    if not quiet:
        print(f"{len(estimates)} estimates made in {seconds:.0f} s", file=sys.stderr)
    return {
        "runs": len(estimates),
        "seconds": seconds,
        "report": estimating.report(estimates, counted, seconds, json="--json" in argv),
    }


class _Tally:
    """What the run has decided so far."""

    def __init__(self, held: tuple[int, int, int], cycles: Sequence[str]) -> None:
        self.proven, self.lost, self.undecided = held
        self.resumed = sum(held)
        self.cycles = set(cycles)
        self.columns = 0
        self.played = 0  # by the starts decided in this sitting, this sitting
        self.results: list[dict] = []

    def add(self, line: str) -> None:
        result = json.loads(line)
        self.results.append(result)
        self.columns += columns_played(result)
        outcome = result["outcome"]
        if outcome in ("perpetual", "joined"):
            self.proven += 1
            self.cycles.add(result["cycle"])
        elif outcome == "game_over":
            self.lost += 1
        else:
            self.undecided += 1

    @property
    def decided(self) -> int:
        return self.proven + self.lost + self.undecided


def horizon(
    *words: str,
    address: Optional[str] = None,
    num_cpus: Optional[int] = None,
    cpus_per_start: int = 1,
    quiet: bool = False,
    one_machine: Optional[os.PathLike[str] | str] = None,
    **options: Any,
) -> dict:
    """Play ``jewelbot horizon``'s starts as Ray tasks; return the run's summary.

    Args:
        words: ``horizon``'s options as the command takes them (``"--every-start"``, ...).
        address: The cluster (``"auto"``, ``"ray://HOST:10001"``); ``None`` starts a local one
            for the run (or uses the one this process already joined).
        num_cpus: CPUs of the local cluster (``None``: all).
        cpus_per_start: The CPUs each start's task takes, which its player's decisions spread
            over.
        quiet: No progress lines.
        one_machine: A results file of the same starts played by ``jewelbot horizon`` on one
            machine: the summary then says the columns it played too.
        options: More of ``horizon``'s options as keywords (``every_start=True``,
            ``results="r.jsonl"``, ``checkpoint="/shared/ck"``, ``objective="score"``).

    Returns:
        The summary: ``starts``, ``proven``, ``lost``, ``undecided``, ``cycles``, ``resumed``,
        ``columns`` (what the starts decided now took, from the start of their games),
        ``played`` (what this run played of them, without the checkpoints it resumed from),
        ``seconds``, ``columns_per_second`` (``played`` a second), ``results``
        (the lines of the starts played now), and with ``one_machine``
        ``one_machine_columns`` (what that file's run played for the starts played now) and
        ``one_machine_starts`` (how many of them it holds). Under the reference rules: ``runs``,
        ``seconds`` and ``report`` (the command's text, or its JSON with ``--json``).

    Raises:
        Stopped: SIGINT or SIGTERM stopped the run (caught from the main thread only): the
            starts in flight kept their games, and the same call goes on from the results
            file and the checkpoints. It is a ``KeyboardInterrupt``.
        RuntimeError: A worker refused the run (another player, another version), a start
            was lost more often than Ray retries it, or another driver writes the results file.
        ValueError: Options that ``jewelbot horizon`` refuses.
    """
    ray = _import_ray()
    argv = list(words) + flags(options)
    if horizon_estimates(argv):
        ReferenceEstimate(argv)  # its options checked before a cluster is joined
        if not ray.is_initialized():
            ray.init(address=address, num_cpus=num_cpus, log_to_driver=False)
        return _estimate(ray, argv, quiet)
    if isinstance(cpus_per_start, bool) or not isinstance(cpus_per_start, int):
        raise TypeError(f"cpus_per_start must be an int, not {type(cpus_per_start).__name__}")
    if cpus_per_start < 1:
        raise ValueError(f"cpus_per_start must be at least 1, not {cpus_per_start}")
    driver = HorizonDriver(argv)
    compared = one_machine_columns(one_machine) if one_machine is not None else None
    for refusal in driver.refused:
        print(refusal, file=sys.stderr)
    results = Path(driver.results) if driver.results is not None else None
    with _only_writer(results):
        if not ray.is_initialized():
            ray.init(address=address, num_cpus=num_cpus, log_to_driver=False)
        summary = _drive(ray, driver, argv, cpus_per_start, quiet)
    if compared is not None:
        both = [r["generator_state"] for r in summary["results"]]
        both = [start for start in both if start in compared]
        summary["one_machine_columns"] = sum(compared[start] for start in both)
        summary["one_machine_starts"] = len(both)
    return summary


class Stopped(KeyboardInterrupt):
    """The driver was stopped by a signal (SIGINT, SIGTERM): the starts in flight kept their
    games, and the same command goes on from the results file and the checkpoints."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@contextlib.contextmanager
def _stop_signals() -> Iterator[list[int]]:
    """SIGINT and SIGTERM, caught as a note (the signals received) that the driver's loop reads
    between two waits: an exception raised by the signal in the middle of Ray's own calls could
    be lost there. Only the main thread can catch signals; elsewhere the note stays empty."""
    caught: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield caught
        return
    kept = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    for signum in kept:
        signal.signal(signum, lambda signum, _frame: caught.append(signum))
    try:
        yield caught
    finally:
        for signum, handler in kept.items():
            signal.signal(signum, handler)


def _drive(
    ray: Any, driver: HorizonDriver, argv: list[str], cpus_per_start: int, quiet: bool
) -> dict:
    task = ray.remote(max_retries=RETRIES, retry_exceptions=False, num_cpus=cpus_per_start)(
        _play_start
    )
    settings = driver.settings
    starts = deque(driver.starts)
    run = uuid.uuid4().hex
    # No board for a run with nothing to play (a finished run resumed).
    board = _run_board(ray) if starts else None
    known = driver.lessons()
    if board is not None and known != b"[]":
        board.pin.remote([ray.put(known)])
    tally = _Tally(driver.held, driver.held_cycles)
    total = len(starts) + tally.resumed
    pending: dict[Any, int] = {}
    began = last_said = time.monotonic()
    with _stop_signals() as caught:
        try:
            while starts or pending:
                # A start for each `cpus_per_start` CPUs of the cluster as it is now (nodes come and
                # go): the others wait here, and each learns, when it begins, all that the starts
                # before it taught.
                in_flight = max(1, int(ray.cluster_resources().get("CPU", 1)) // cpus_per_start)
                while starts and len(pending) < in_flight:
                    start = starts.popleft()
                    ref = task.remote(
                        run, argv, settings, __version__, start, cpus_per_start, board
                    )
                    pending[ref] = start
                done, _ = ray.wait(list(pending), num_returns=1, timeout=LOOK_EVERY)
                for ref in done:
                    start = pending.pop(ref)
                    try:
                        _, line, taught, played = ray.get(ref)
                    except ray.exceptions.RayTaskError as error:
                        # A refusal (another player, another version): every start would meet it.
                        _stop_in_flight(ray, driver, tally, pending)
                        raise RuntimeError(f"start {start:#06x}: {error.cause}") from None
                    except ray.exceptions.RayError as error:
                        # Its worker or node lost once more than Ray retries it: the others keep
                        # their games, and the same command goes on.
                        _stop_in_flight(ray, driver, tally, pending)
                        raise RuntimeError(
                            f"start {start:#06x} was lost {RETRIES + 1} times ({error}); the same "
                            "command goes on from the results file and the checkpoints"
                        ) from None
                    _record(driver, tally, line)
                    tally.played += played
                    if board is not None and taught != b"[]":
                        board.pin.remote([ray.put(taught)])
                now = time.monotonic()
                if not quiet and (now - last_said >= PROGRESS_EVERY or not (starts or pending)):
                    last_said = now
                    _say_progress(tally, total, _played(ray, board), now - began)
                if caught:
                    raise Stopped(caught[0])
        except KeyboardInterrupt:
            _stop_in_flight(ray, driver, tally, pending)
            print(
                f"stopped when asked: {total - tally.decided} starts undecided; the same command "
                "goes on from the results file"
                + (" and the checkpoints" if driver.checkpoint else ""),
                file=sys.stderr,
            )
            raise
    seconds = time.monotonic() - began
    return {
        "starts": total,
        "proven": tally.proven,
        "lost": tally.lost,
        "undecided": tally.undecided,
        "cycles": len(tally.cycles),
        "resumed": tally.resumed,
        "columns": tally.columns,
        "seconds": seconds,
        "played": tally.played,
        "columns_per_second": tally.played / seconds if seconds > 0 else 0.0,
        "results": tally.results,
    }


def _run_board(ray: Any) -> Any:
    """The run's board, on the driver's node: it goes when the driver goes."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    here = NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=False)
    return ray.remote(num_cpus=0)(RunBoard).options(scheduling_strategy=here).remote()


def _record(driver: HorizonDriver, tally: _Tally, line: Optional[str]) -> None:
    if line is not None:
        driver.record(line)
        tally.add(line)


def _stop_in_flight(ray: Any, driver: HorizonDriver, tally: _Tally, pending: dict) -> None:
    """Cancels the starts in flight: each game ends where it is and keeps its checkpoint (the
    cancel is a KeyboardInterrupt in the task). A start decided meanwhile is recorded; one that
    does not end within ``STOP_GRACE`` seconds is killed, and keeps its last checkpoint."""
    for ref in pending:
        ray.cancel(ref)
    ended, left = ray.wait(list(pending), num_returns=len(pending), timeout=STOP_GRACE)
    for ref in ended:
        with contextlib.suppress(ray.exceptions.RayError):  # cancelled: nothing decided
            _, line, _, played = ray.get(ref)
            tally.played += played
            _record(driver, tally, line)
    for ref in left:
        ray.cancel(ref, force=True)


def _played(ray: Any, board: Any) -> int:
    """The columns the run's games have played so far (none for a run with nothing to play)."""
    return ray.get(board.played.remote()) if board is not None else 0


def _say_progress(tally: _Tally, total: int, played: int, seconds: float) -> None:
    rate = played / seconds if seconds > 0 else 0.0
    print(
        f"{tally.decided}/{total} starts decided: {tally.proven} proven, {tally.lost} lost, "
        f"{tally.undecided} undecided; {rate:,.0f} columns/s over the cluster",
        file=sys.stderr,
        flush=True,
    )


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m jewelbot.cluster horizon ...``."""
    parser = argparse.ArgumentParser(
        prog="python -m jewelbot.cluster",
        description="Run jewelbot horizon's proofs on a Ray cluster (docs/cluster.md).",
        epilog="horizon's own options:\n\n" + horizon_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("command", choices=["horizon"])
    parser.add_argument("--address", help="the cluster: auto, or ray://HOST:10001")
    parser.add_argument("--num-cpus", type=int, help="CPUs of a local cluster")
    parser.add_argument(
        "--cpus-per-start",
        type=int,
        default=1,
        metavar="N",
        help="the CPUs each start takes, which its player's decisions spread over (default 1)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    parser.add_argument(
        "--one-machine",
        metavar="RESULTS",
        help="a results file of the same starts from jewelbot horizon on one machine: "
        "the summary says the columns it played beside the cluster's",
    )
    ours, words = parser.parse_known_args(argv)
    try:
        summary = horizon(
            *words,
            address=ours.address,
            num_cpus=ours.num_cpus,
            cpus_per_start=ours.cpus_per_start,
            quiet=ours.quiet,
            one_machine=ours.one_machine,
        )
    except Stopped as stop:
        return 128 + stop.signum
    except KeyboardInterrupt:
        return 128 + signal.SIGINT
    except (ValueError, RuntimeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if "report" in summary:
        print(summary["report"], end="")
        return 0
    print(
        f"{summary['starts']} starts: {summary['proven']} proven perpetual (in "
        f"{summary['cycles']} cycles), {summary['lost']} lost, {summary['undecided']} undecided "
        f"({summary['resumed']} held by the results file); the starts decided took "
        f"{summary['columns']:,} columns, and this run played {summary['played']:,} in "
        f"{summary['seconds']:.0f} s ({summary['columns_per_second']:,.0f} columns/s)"
    )
    if "one_machine_columns" in summary:
        ratio = summary["columns"] / max(1, summary["one_machine_columns"])
        print(
            f"one machine played {summary['one_machine_columns']:,} columns for "
            f"{summary['one_machine_starts']} of the same starts: the cluster played "
            f"{ratio:.3f} times that"
        )
    return 0


if __name__ == "__main__":
    # Run as the module `jewelbot.cluster`, not as `__main__`: Ray then sends its tasks to the
    # workers by name, where each process keeps its player between tasks.
    from jewelbot.cluster import main as _main

    sys.exit(_main())
