"""Carcassonne rules engine with expansions as plugins (docs/python.md).

>>> import carcassonne, random
>>> g = carcassonne.Game("base", players=2, seed=1)
>>> while not g.is_over:
...     g.play(random.randrange(g.legal_action_count()))
>>> len(g.scores)
2

Errors: an unknown rule set or bad TOML raises `RulesError`, an illegal action (or one
played after the end) raises `IllegalActionError`; both are `ValueError`s carrying the
engine's one-line message.
"""

from ._native import (
    BOT_NAMES,
    Bot,
    Game,
    IllegalActionError,
    RulesError,
    check_rules,
    rule_sets,
    simulate,
    __version__,
)
from .encoding import DEFAULT_WINDOW, action_mask, observation_space_shapes, observe

__all__ = [
    "BOT_NAMES",
    "Bot",
    "DEFAULT_WINDOW",
    "Game",
    "IllegalActionError",
    "RulesError",
    "action_mask",
    "check_rules",
    "observation_space_shapes",
    "observe",
    "rule_sets",
    "simulate",
    "__version__",
]


def _register():
    try:
        from gymnasium.envs.registration import register, registry
    except ImportError:  # gymnasium is optional
        return
    if "Carcassonne-v0" not in registry:
        register(id="Carcassonne-v0", entry_point="carcassonne.env:CarcassonneEnv")


_register()
