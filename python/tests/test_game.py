import numpy as np
import pytest

from jewelbot import Game


def test_a_seed_deals_the_same_game():
    a, b = Game("real", 11), Game("real", 11)
    assert a.current == b.current and a.next == b.next
    assert Game("real", 12).generator_state != a.generator_state


def test_the_generator_state_deals_as_the_seed():
    state = Game.dealt_state(11)
    a, b = Game("real", 11), Game("real", generator_state=state)
    assert (a.current, a.next, a.generator_state) == (b.current, b.next, b.generator_state)


def test_after_all_zero_power_on_the_first_columns():
    # The real game's first columns after an all-zero power-on (docs/magic-jewelry.md).
    game = Game("real", generator_state=0xADAD)
    assert game.current == (5, 1, 2) and game.next == (2, 4, 3)


def test_placing_columns():
    game = Game("real", 3)
    mask = game.action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (18,) and mask.all()
    turn = game.play(0)
    assert set(turn) == {"points", "removed", "chains", "wild", "jewels", "lost"}
    assert turn["jewels"] == 3 and not turn["lost"]
    board = game.board
    assert board.shape == (15, 6) and (board[:, 0] > 0).sum() == 3


def test_observation_planes_match_the_board():
    game = Game("reference", 5)
    for action in (0, 3, 6, 9, 12, 15, 1, 4):
        game.play(action)
    observation = game.observation()
    planes = observation["board"]
    grid = (planes * np.arange(1, 8)[:, None, None]).sum(axis=0)
    assert np.array_equal(grid, game.board)
    assert tuple(observation["current"]) == game.current


def masked_game():
    """A game whose column in hand cannot reach every placement: played at random (seeded)
    until the stacks wall some off."""
    rng = np.random.default_rng(4)
    for seed in range(50):
        game = Game("reference", seed)
        for _ in range(200):
            mask = game.action_mask()
            if not mask.all():
                return game
            if game.play(int(rng.choice(np.flatnonzero(mask))))["lost"]:
                break
    raise AssertionError("no seed walled off a placement")


def test_unreachable_out_of_range_and_wrong_actions():
    game = masked_game()
    mask = game.action_mask()
    blocked = int(np.flatnonzero(~mask)[0])
    before = game.board
    with pytest.raises(ValueError, match="not reachable"):
        game.play(blocked)
    assert np.array_equal(before, game.board), "a refused action changed the game"
    with pytest.raises(ValueError, match="out of range"):
        game.play(18)
    with pytest.raises(ValueError, match="out of range"):
        game.play(-1)
    with pytest.raises(TypeError):
        game.play(1.0)
    with pytest.raises(TypeError):
        game.play(True)


def test_bad_rules_and_states():
    with pytest.raises(ValueError, match="rule"):
        Game("nope")
    with pytest.raises(ValueError, match="real"):
        Game("reference", generator_state=1)
    with pytest.raises(ValueError, match="0-65535"):
        Game("real", generator_state=70000)
    with pytest.raises(OverflowError):
        Game("real", -1)
