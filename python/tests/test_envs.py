import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import jewelbot  # noqa: F401  (registers the environments)
from jewelbot import Game, Player
from jewelbot.envs import MagicJewelryEnv, MagicJewelryPlacementsEnv

FRAMES = "jewelbot/MagicJewelry-v0"
PLACEMENTS = "jewelbot/MagicJewelryPlacements-v0"


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        (FRAMES, {}),
        (FRAMES, {"obs_type": "ram", "reward": "jewels", "frameskip": 4}),
        (FRAMES, {"obs_type": "rgb", "render_mode": "rgb_array"}),
        (PLACEMENTS, {}),
        (PLACEMENTS, {"rules": "reference", "reward": "survival", "render_mode": "rgb_array"}),
        (PLACEMENTS, {"backend": "emulator", "render_mode": "rgb_array"}),
    ],
)
def test_check_env(env_id, kwargs):
    env = gym.make(env_id, **kwargs)
    check_env(env.unwrapped, skip_render_check=False)
    env.observation_space.seed(0)
    assert env.observation_space.contains(env.observation_space.sample())
    observation, _ = env.reset(seed=0)
    assert env.observation_space.contains(observation)
    env.close()


def episode(env, seed, actions):
    observation, _ = env.reset(seed=seed)
    trace = [observation]
    for action in actions:
        observation, reward, terminated, truncated, _ = env.step(action)
        trace.append((observation, reward, terminated))
        if terminated:
            break
    return trace


def same(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return np.array_equal(a, b)


def test_a_seeded_frames_episode_repeats():
    env = gym.make(FRAMES, frameskip=2)
    rng = np.random.default_rng(0)
    actions = [rng.integers(0, 2, 8) for _ in range(150)]
    first = episode(env, 21, actions)
    again = episode(env, 21, actions)
    assert same(first, again)
    other = episode(env, 22, actions)
    assert not same(first[0], other[0]), "another seed dealt the same game"


def test_a_seeded_placements_episode_repeats():
    env = gym.make(PLACEMENTS)
    observation, info = env.reset(seed=3)
    actions = []
    for _ in range(40):
        action = int(np.flatnonzero(info["action_mask"])[len(actions) % 5])
        actions.append(action)
        observation, _, terminated, _, info = env.step(action)
        if terminated:
            break
    first = episode(env, 3, actions)
    again = episode(env, 3, actions)
    assert same(first, again)


def test_the_frames_environment_deals_the_seed_s_game():
    env = MagicJewelryEnv()
    observation, _ = env.reset(seed=5, options={"game_seed": 99})
    game = Game("real", 99)
    assert tuple(observation["current"]) == game.current
    assert tuple(observation["next"]) == game.next


def test_the_placements_environment_plays_sim_s_games():
    """The player in the environment, on the game `sim --seed 7` plays first, leaves the jewels
    and scores the points `sim` counts."""
    columns = 120
    [(game_seed, played)] = jewelbot.sim_games(7, columns)
    assert played == columns
    report = jewelbot.simulate("player", columns=columns, seed=7)
    env = MagicJewelryPlacementsEnv()
    observation, _ = env.reset(options={"game_seed": game_seed})
    player = Player()
    jewel_sum = points = 0
    for _ in range(columns):
        action, _ = player.choose(observation)
        observation, reward, terminated, _, _ = env.step(action)
        jewel_sum += int(observation["board"].sum())
        points += reward
        assert not terminated
    assert jewel_sum == report["stats"]["jewel_sum"]
    assert points == report["stats"]["chains"]["points"]


def test_the_emulator_plays_as_the_engine_on_the_cartridge():
    """The same seed and placements on both backends: the same observation after every
    column (board, columns, counters, generator), the same points and jewels cleared."""
    engine = MagicJewelryPlacementsEnv()
    emulator = MagicJewelryPlacementsEnv(backend="emulator")
    seen, _ = engine.reset(seed=11)
    shown, _ = emulator.reset(seed=11)
    assert same(seen, shown)
    player = Player(strategy="smart")
    for column in range(45):
        assert np.array_equal(engine.action_masks(), emulator.action_masks()), column
        action, _ = player.choose(seen)
        seen, reward, lost, _, _ = engine.step(action)
        shown, paid, over, _, _ = emulator.step(action)
        assert same(seen, shown), f"column {column}"
        assert (reward, lost) == (paid, over)
    assert seen["counters"][0] > 0, "no points in 45 columns"


def test_vector_environments():
    for vector in (gym.vector.SyncVectorEnv, gym.vector.AsyncVectorEnv):
        envs = vector([lambda: gym.make(PLACEMENTS, rules="reference") for _ in range(2)])
        observations, infos = envs.reset(seed=[1, 2])
        assert observations["board"].shape == (2, 7, 15, 6)
        for _ in range(5):
            masks = infos["action_mask"]
            actions = np.array([int(np.flatnonzero(m)[0]) for m in masks])
            observations, rewards, terminated, _, infos = envs.step(actions)
        assert rewards.shape == (2,)
        envs.close()
    frames = gym.vector.SyncVectorEnv([lambda: gym.make(FRAMES, obs_type="ram") for _ in range(2)])
    observations, _ = frames.reset(seed=4)
    observations, *_ = frames.step(np.zeros((2, 8), dtype=np.int8))
    assert observations.shape == (2, 2048)
    frames.close()


def test_bad_actions():
    env = MagicJewelryPlacementsEnv(rules="reference")
    env.reset(seed=1)
    with pytest.raises(ValueError, match="out of range"):
        env.step(18)
    with pytest.raises(TypeError):
        env.step("left")
    with pytest.raises(TypeError):
        env.step(np.zeros(3))
    frames = MagicJewelryEnv(obs_type="ram")
    frames.reset(seed=1)
    with pytest.raises(ValueError, match="8 values"):
        frames.step(np.zeros(3))
    with pytest.raises(TypeError):
        frames.step(None)


def test_actions_out_of_the_mask_change_nothing():
    env = MagicJewelryPlacementsEnv(rules="reference")
    rng = np.random.default_rng(4)
    _, info = env.reset(seed=0)
    for _ in range(3000):
        if not info["action_mask"].all():
            break
        _, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated:
            _, info = env.reset()
    mask = env.action_masks()
    assert not mask.all()
    blocked = int(np.flatnonzero(~mask)[0])
    with pytest.raises(ValueError, match="not reachable"):
        env.step(blocked)


def test_the_action_space_samples_within_the_info_s_mask():
    env = MagicJewelryPlacementsEnv(rules="reference")
    env.action_space.seed(3)
    _, info = env.reset(seed=0)
    assert info["action_mask"].dtype == np.int8
    for _ in range(300):
        action = env.action_space.sample(mask=info["action_mask"])
        assert info["action_mask"][action] == 1
        _, _, terminated, _, info = env.step(action)  # an unreachable one raises
        if terminated:
            _, info = env.reset()


def test_bad_options_and_settings(other_rom):
    with pytest.raises(ValueError, match="obs_type"):
        MagicJewelryEnv(obs_type="pixels")
    with pytest.raises(ValueError, match="frameskip"):
        MagicJewelryEnv(frameskip=0)
    with pytest.raises(ValueError, match="reward"):
        MagicJewelryPlacementsEnv(reward="fun")
    with pytest.raises(ValueError, match="real"):
        MagicJewelryPlacementsEnv(rules="reference", backend="emulator")
    with pytest.raises(ValueError, match="Magic Jewelry"):
        MagicJewelryPlacementsEnv(backend="emulator", rom=other_rom)
    env = MagicJewelryPlacementsEnv()
    with pytest.raises(ValueError, match="generator_state"):
        env.reset(options={"generator_state": 1 << 20})
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"level": 3})
    with pytest.raises(RuntimeError, match="reset"):
        MagicJewelryPlacementsEnv().step(0)


def test_closed_environments():
    for env in (MagicJewelryEnv(), MagicJewelryPlacementsEnv(backend="emulator")):
        env.reset(seed=0)
        env.close()
        env.close()
        with pytest.raises(RuntimeError, match="closed"):
            env.reset(seed=0)
        with pytest.raises(RuntimeError, match="closed"):
            env.step(0)


def test_game_over_ends_the_episode():
    env = MagicJewelryPlacementsEnv(rules="reference")
    _, info = env.reset(seed=2)
    for _ in range(100):
        _, _, terminated, _, info = env.step(9 if info["action_mask"][9] else 0)
        if terminated:
            break
    assert terminated
    with pytest.raises(RuntimeError, match="over"):
        env.step(0)
