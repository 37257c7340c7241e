"""The Gymnasium environment."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import carcassonne
from carcassonne.env import CarcassonneEnv


def test_env_checker_passes():
    check_env(CarcassonneEnv(), skip_render_check=True)
    check_env(CarcassonneEnv("classic-everything", players=3, seat=1, opponents=["greedy", "random"]),
              skip_render_check=True)


def test_registered_id():
    env = gym.make("Carcassonne-v0", rules="base")
    obs, info = env.reset(seed=1)
    assert env.action_space.n == info["action_mask"].shape[0]
    assert obs["board"].shape[0] == 19


def run_episode(env, seed):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps = 0.0, 0
    while True:
        legal = np.flatnonzero(info["action_mask"])
        assert legal.size > 0
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        assert not info["illegal_action"] and not truncated
        total += reward
        steps += 1
        if terminated:
            return total, steps, info


def test_episode_reward_is_the_final_score_difference():
    env = CarcassonneEnv("base", opponents="greedy")
    total, steps, info = run_episode(env, 5)
    s = env.game.scores
    assert env.game.is_over and total == s[0] - s[1]
    assert info["scores"] == s
    # The agent answers its own decisions only: one tile and one figure decision per turn
    # (about half of the 71 turns).
    assert 50 <= steps <= 80


def test_same_seed_same_episode():
    a, b = CarcassonneEnv("river"), CarcassonneEnv("river")
    oa, _ = a.reset(seed=9)
    ob, _ = b.reset(seed=9)
    assert all(np.array_equal(oa[k], ob[k]) for k in oa)
    ra, rb = run_episode(a, 9), run_episode(b, 9)
    assert ra[:2] == rb[:2] and a.game.scores == b.game.scores
    # Another seed, another game (the river's tile order differs).
    c = CarcassonneEnv("river")
    oc, _ = c.reset(seed=10)
    assert not all(np.array_equal(oa[k], oc[k]) for k in oa)


def test_illegal_actions():
    env = CarcassonneEnv("base")
    _, info = env.reset(seed=2)
    bad = int(np.flatnonzero(~info["action_mask"])[0])
    _, _, _, _, info2 = env.step(bad)
    assert info2["illegal_action"]
    strict = CarcassonneEnv("base", illegal_action="raise")
    _, info = strict.reset(seed=2)
    with pytest.raises(carcassonne.IllegalActionError):
        strict.step(bad)
    with pytest.raises(ValueError):
        CarcassonneEnv("base", seat=2)
    with pytest.raises(ValueError):
        CarcassonneEnv("base", opponents="clever")
