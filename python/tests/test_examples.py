import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "python"


def run(script, *args):
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_random_agent():
    out = run("random_agent.py", "--episodes", "1", "--most-steps", "50")
    assert "placements episode 0:" in out and "frames episode 0:" in out


def test_the_teacher():
    out = run("teacher.py", "--columns", "300", "--epochs", "2", "--measure", "500")
    lines = {line.split()[0]: line for line in out.splitlines()}
    assert "300 demonstrations" in out
    assert {"teacher", "student", "random"} <= lines.keys()


def test_maskable_ppo_for_a_few_hundred_steps():
    pytest.importorskip("sb3_contrib")
    out = run("maskable_ppo.py", "--timesteps", "256", "--measure", "200")
    assert "MaskablePPO 256 steps" in out
