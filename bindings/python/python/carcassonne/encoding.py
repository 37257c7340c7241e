"""The observation encoding and the fixed action space (docs/python.md).

`observe(game, window)` returns a dict of numpy arrays; `action_mask(game, window)` a
boolean array over the fixed action space, True for the slots of legal actions;
`game.play_slot(window, slot)` plays the action of a slot.
"""

import numpy as np

#: Side of the square board window, in cells.
DEFAULT_WINDOW = 31


def observation_space_shapes(game, window=DEFAULT_WINDOW):
    """Shapes and dtypes of `observe`'s arrays for this game's rule set and seats."""
    s = game.encoding_sizes(window)
    return {
        "board": ((s["channels"], window, window), np.uint8),
        "tile": ((4, s["tile_codes"]), np.uint8),
        "meta": ((s["meta"],), np.int32),
        "scores": ((s["players"],), np.int32),
        "supply": ((s["players"], s["figure_kinds"]), np.int32),
    }


def observe(game, window=DEFAULT_WINDOW):
    """The observation of `game` as numpy arrays (see docs/python.md for the channels)."""
    board, tile, meta, scores, supply = game._observe(window)
    s = game.encoding_sizes(window)
    return {
        "board": np.frombuffer(board, dtype=np.uint8).reshape(s["channels"], window, window).copy(),
        "tile": np.frombuffer(tile, dtype=np.uint8).reshape(4, s["tile_codes"]).copy(),
        "meta": np.asarray(meta, dtype=np.int32),
        "scores": np.asarray(scores, dtype=np.int32),
        "supply": np.asarray(supply, dtype=np.int32).reshape(s["players"], s["figure_kinds"]),
    }


def action_mask(game, window=DEFAULT_WINDOW):
    """A bool array of `encoding_sizes(window)["actions"]` slots: True where legal."""
    mask = np.zeros(game.encoding_sizes(window)["actions"], dtype=bool)
    slots = np.asarray(game.action_slots(window), dtype=np.int64)
    mask[slots[slots >= 0]] = True
    return mask
