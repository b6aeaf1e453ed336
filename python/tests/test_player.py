import json

import numpy as np
import pytest

import jewelbot
from jewelbot import Game, Player


def test_the_player_as_it_ships():
    player = Player()
    description = json.loads(player.description)
    assert description["strategy"] == "deep" and description["work"] == 3000
    game = Game("real", 8)
    action, reason = player.choose(game)
    assert game.action_mask()[action]
    assert isinstance(reason, str) and reason


def test_from_a_game_or_its_observation_the_same_choice():
    player = Player(strategy="smart")
    game = Game("real", 9)
    for _ in range(30):
        from_game, _ = player.choose(game)
        from_observation, _ = player.choose(game.observation())
        assert from_game == from_observation
        game.play(from_game)


def test_knobs_as_keywords():
    names = {k["name"] for k in jewelbot.knobs()}
    assert {"strategy", "objective", "foresight", "foresight_depth", "work"} <= names
    player = Player(
        strategy="smart", objective="score", foresight=True, foresight_depth=2, work=500
    )
    assert json.loads(player.description)["foresight"]["depth"] == 2
    game = Game("real", 1)
    action, _ = player.choose(game)
    assert game.action_mask()[action]


def test_foresight_plays_a_better_game_on_a_seed():
    def score(player):
        game = Game("real", 4)
        for _ in range(150):
            game.play(player.choose(game)[0])
        return game.counters["score"]

    fair = score(Player(objective="score", work=600))
    foresight = score(Player(objective="score", work=600, foresight=True))
    assert fair != foresight, "foresight changed no choice in 150 columns"


def test_bad_knobs():
    with pytest.raises(TypeError, match="unexpected keyword"):
        Player(colour="red")
    with pytest.raises(ValueError, match="objective"):
        Player(objective="win")
    with pytest.raises(TypeError, match="True or False"):
        Player(foresight="yes")
    with pytest.raises(ValueError, match="work"):
        Player(work=-5)
    with pytest.raises(TypeError):
        Player(work="many")
    with pytest.raises(ValueError, match="foresight=True"):
        Player(foresight_depth=2)
    with pytest.raises(ValueError):
        Player(weights="/nonexistent/weights.json")


def test_other_rules_and_bad_observations():
    with pytest.raises(ValueError, match="rules"):
        Player().choose(Game("reference", 1))
    observation = Game("real", 1).observation()
    observation["board"] = np.zeros((3, 3))
    with pytest.raises(ValueError, match="board"):
        Player().choose(observation)
    observation = Game("real", 1).observation()
    observation["current"] = np.array([0, 9, 1])
    with pytest.raises(ValueError, match="current"):
        Player().choose(observation)
    with pytest.raises(KeyError):
        Player().choose({})
