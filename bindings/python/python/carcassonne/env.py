"""`CarcassonneEnv` (registered as `Carcassonne-v0`): the agent plays one seat of a game
against built-in bots (docs/python.md, "Gymnasium environment").

Observation: the dict of `carcassonne.observe`; action: a slot of the fixed action space
(`info["action_mask"]` marks the legal ones); reward: 0 until the last step, then the
agent's final score minus the best final score of the other seats.
"""

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ._native import Bot, Game, IllegalActionError
from .encoding import DEFAULT_WINDOW, action_mask, observation_space_shapes, observe


class CarcassonneEnv(gym.Env):
    """One seat of a Carcassonne game against bots.

    Parameters: `rules` (as `Game` takes them), `players`, `seat` (the agent's seat),
    `opponents` (a bot name for every other seat, or a list of names cycled over them:
    `random`, `greedy`), `window` (cells of the board view), `illegal_action`: `"first"`
    (an action outside the mask plays the first legal slot instead, and
    `info["illegal_action"]` is True) or `"raise"` (`IllegalActionError`).
    """

    metadata = {"render_modes": []}

    def __init__(self, rules="base", players=2, seat=0, opponents="random", window=DEFAULT_WINDOW,
                 illegal_action="first"):
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat}: the game has seats 0 to {players - 1}")
        if illegal_action not in ("first", "raise"):
            raise ValueError(f"illegal_action {illegal_action!r}: 'first' or 'raise'")
        self._proto = Game(rules, players=players, seed=0, record=False)
        names = [opponents] if isinstance(opponents, str) else list(opponents)
        if not names:
            raise ValueError("opponents: name at least one bot")
        for n in names:
            Bot(n)  # raises ValueError for an unknown bot
        others = [s for s in range(players) if s != seat]
        self._bot_names = {s: names[i % len(names)] for i, s in enumerate(others)}
        self.seat, self.players, self.window = seat, players, window
        self.illegal_action = illegal_action
        sizes = self._proto.encoding_sizes(window)
        i32 = np.iinfo(np.int32)
        shapes = observation_space_shapes(self._proto, window)
        self.observation_space = spaces.Dict({
            k: spaces.Box(low=0 if dt == np.uint8 else i32.min, high=255 if dt == np.uint8 else i32.max,
                          shape=shape, dtype=dt)
            for k, (shape, dt) in shapes.items()
        })
        self.action_space = spaces.Discrete(sizes["actions"])
        self.game = None
        self._bots = {}
        self._skipped = 0

    def _advance(self):
        """Lets the bots play until the agent has a decision with a slot, or the end."""
        g = self.game
        while not g.is_over:
            p = g.current_player
            if p is None:
                raise RuntimeError(f"the game stopped: {g.failure}")
            if p != self.seat:
                self._bots[p].play(g)
            elif not any(s >= 0 for s in g.action_slots(self.window)):
                # No legal action lies in the window (a very spread-out board): the first
                # legal action is played for the agent (counted in info["skipped"]).
                g.play_index(0)
                self._skipped += 1
            else:
                return

    def _obs_info(self, extra=None):
        info = {"action_mask": action_mask(self.game, self.window), "scores": list(self.game.scores),
                "skipped": self._skipped}
        if extra:
            info.update(extra)
        return observe(self.game, self.window), info

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self.game = self._proto.new_game(game_seed)
        self._bots = {s: Bot(n, game_seed, s) for s, n in self._bot_names.items()}
        self._skipped = 0
        self._advance()
        return self._obs_info()

    def step(self, action):
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        if self.game.is_over:
            raise IllegalActionError("the game is over: call reset()")
        slot = int(action)
        slots = self.game.action_slots(self.window)
        extra = {"illegal_action": False}
        if slot not in slots or slot < 0:
            if self.illegal_action == "raise":
                raise IllegalActionError(f"action slot {slot} is not legal here (see info['action_mask'])")
            slot = next(s for s in slots if s >= 0)
            extra["illegal_action"] = True
        self.game.play_slot(self.window, slot)
        self._advance()
        terminated = self.game.is_over
        reward = 0.0
        if terminated:
            s = self.game.scores
            reward = float(s[self.seat] - max(v for i, v in enumerate(s) if i != self.seat))
        obs, info = self._obs_info(extra)
        return obs, reward, terminated, False, info
