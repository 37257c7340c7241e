"""The observation encoding and the fixed action space."""

import random

import numpy as np

import carcassonne
from carcassonne import action_mask, observe

W = carcassonne.DEFAULT_WINDOW


def test_shapes_of_a_base_game():
    g = carcassonne.Game("base", seed=1)
    s = g.encoding_sizes(W)
    # One figure kind (the follower), two seats: 17 fixed channels + 2 x 1.
    assert g.figure_kinds == ["follower"]
    assert s["channels"] == 19
    o = observe(g, W)
    shapes = carcassonne.observation_space_shapes(g, W)
    for k, (shape, dtype) in shapes.items():
        assert o[k].shape == shape and o[k].dtype == dtype, k
    assert s["tile_slots"] == W * W * 8
    assert s["actions"] == s["tile_slots"] + s["figure_slots"] + 1 + 64
    assert s["figure_slots"] == 1 * W * W * s["feature_slots"]


def test_start_tile_codes():
    """The start tile D at (0,0), rotation 0: city N, road E-W, fields (TILES.md)."""
    g = carcassonne.Game("base", seed=1)
    o = observe(g, W)
    b = o["board"]
    c = W // 2
    assert b[0].sum() == 1 and b[0, c, c] == 1
    # sides N E S W, halves Nw Ne En Es Se Sw Ws Wn, centre
    assert list(b[2:15, c, c]) == [1, 2, 3, 2, 1, 1, 3, 3, 3, 3, 3, 3, 0]
    assert o["meta"].tolist()[:6] == [1, 70, 1, 0, -c, -c]
    assert o["scores"].tolist() == [0, 0]
    assert o["supply"].tolist() == [[7], [7]]


def test_mask_marks_every_legal_action_and_slots_play_them():
    g = carcassonne.Game("classic-everything", seed=6)
    by_index = g.clone()
    rng = random.Random(6)
    while not g.is_over:
        slots = g.action_slots(W)
        n = g.legal_action_count()
        assert len(slots) == n == by_index.legal_action_count()
        mask = action_mask(g, W)
        assert mask.sum() == len({s for s in slots if s >= 0})
        i = rng.randrange(n)
        by_index.play(i)
        if slots[i] >= 0:
            g.play_slot(W, slots[i])
        else:
            g.play(i)
    assert g.record() == by_index.record()


def test_figures_and_the_placed_tile_show():
    g = carcassonne.Game("base", seed=1)
    g.play(0)
    o = observe(g, W)
    assert o["board"][1].sum() == 1 and o["board"][0].sum() == 2
    # A farmer: a field is not scored before the end, so the follower stays.
    figure = next(a for a in g.legal_actions() if a["type"] == "figure" and a["feature"].startswith("field"))
    g.play(figure)
    o = observe(g, W)
    x, y = figure["cell"]
    ox, oy = o["meta"][4], o["meta"][5]
    assert o["board"][17, y - oy, x - ox] == 1 and o["board"][17].sum() == 1
    assert o["supply"].tolist() == [[6], [7]]


def test_dragon_and_fairy_channels():
    g = carcassonne.Game("princess-dragon", seed=3)
    kinds = g.figure_kinds
    assert "dragon" in kinds and "fairy" in kinds
    rng = random.Random(3)
    seen = set()
    while not g.is_over:
        b = observe(g, W)["board"]
        if b[15].sum():
            seen.add("dragon")
        if b[16].sum():
            seen.add("fairy")
        assert b[15].sum() <= 1 and b[16].sum() <= 1
        g.play(rng.randrange(g.legal_action_count()))
    assert seen == {"dragon", "fairy"}
