import pytest

import jewelbot
from jewelbot import Player

KEYS = (
    "game_overs",
    "mean_jewels",
    "max_jewels",
    "columns_per_clear",
    "points_per_column",
    "wild_columns",
    "highest_level",
)


@pytest.mark.parametrize(("ai", "knobs"), [("player", {}), ("smart", {"rules": "reference"})])
def test_a_python_policy_measures_as_sim(ai, knobs):
    """The player as a Python policy, on sim's column sequences, reports sim's statistics."""
    report = jewelbot.simulate(ai, columns=400, seed=3, **knobs)
    strategy = "deep" if ai == "player" else ai
    player = Player(strategy=strategy, **knobs)
    measured = jewelbot.evaluate(
        lambda observation, mask: player.choose(observation)[0],
        columns=400,
        seed=3,
        rules=knobs.get("rules", "real"),
    )
    assert measured["columns"] == report["stats"]["columns"] == 400
    for key in KEYS:
        assert measured[key] == report[key], key


def test_a_weak_policy_measures_worse():
    def leftmost(observation, mask):
        return int(mask.nonzero()[0][0])

    measured = jewelbot.evaluate(leftmost, columns=2000, seed=1)
    assert measured["game_overs"] > 0
    assert measured["mean_jewels"] > jewelbot.simulate("smart", columns=2000, seed=1)["mean_jewels"]


def test_a_policy_s_errors_come_back():
    class Oops(Exception):
        pass

    def failing(observation, mask):
        raise Oops("no idea")

    with pytest.raises(Oops, match="no idea"):
        jewelbot.evaluate(failing, columns=10)
    with pytest.raises(ValueError, match="out of range"):
        jewelbot.evaluate(lambda o, m: 99, columns=10)
    with pytest.raises(TypeError):
        jewelbot.evaluate(lambda o, m: "left", columns=10)
    with pytest.raises(ValueError, match="columns"):
        jewelbot.evaluate(lambda o, m: 0, columns=0)


def test_giving_up_ends_games():
    measured = jewelbot.evaluate(lambda o, m: None, columns=5)
    assert measured["game_overs"] == 5


def test_bad_simulations():
    with pytest.raises(ValueError):
        jewelbot.simulate("grandmaster", columns=10)
    with pytest.raises(TypeError, match="unexpected keyword"):
        jewelbot.simulate("smart", columns=10, strategy="deep")
