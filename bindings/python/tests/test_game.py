"""The game loop, clones, seeds, records and every rule set of config/."""

import json
import random

import pytest

import carcassonne
from conftest import ROOT


def play_random(g, rng):
    moves = []
    while not g.is_over:
        i = rng.randrange(g.legal_action_count())
        moves.append(i)
        g.play(i)
    return moves


def test_random_base_game_runs_to_the_end_with_a_consistent_record():
    g = carcassonne.Game("base", players=2, seed=1)
    assert g.decision == {"player": 0, "kind": "place_tile", "tile": g.tile}
    assert g.current_player == 0 and g.turn == 1 and g.scores == [0, 0]
    # 72 tiles: the start tile and 71 in the pile.
    assert g.tiles_left == 70
    play_random(g, random.Random(1))
    assert g.is_over and g.decision is None and g.current_player is None
    assert g.legal_actions() == [] and g.legal_action_count() == 0
    rec = json.loads(g.record())
    assert rec["format"] == "carcassonne-record/1"
    assert rec["final_scores"] == g.scores
    assert rec["rules"]["file"] == "embedded:config/base.toml"
    placed = sum(1 for t in rec["turns"] if t.get("tile"))
    discarded = sum(len(t.get("discarded", [])) for t in rec["turns"])
    assert placed + discarded == 71


def test_dict_actions_and_indices_play_the_same_game():
    a = carcassonne.Game("base", seed=5)
    b = carcassonne.Game("base", seed=5)
    rng = random.Random(9)
    while not a.is_over:
        legal = a.legal_actions()
        assert len(legal) == a.legal_action_count()
        i = rng.randrange(len(legal))
        a.play(i)
        b.play(legal[i])
    assert b.is_over and a.scores == b.scores and a.record() == b.record()


def test_a_recorded_action_carries_its_player_and_type():
    g = carcassonne.Game("base", seed=2)
    first = g.legal_actions()[0]
    assert first["type"] == "place_tile" and first["tile"] == g.tile
    g.play(first)
    rec = json.loads(g.record())
    assert rec["turns"][0]["actions"][0] == dict(first, player=0)
    # Then the figure decision of the same player: pass is always legal.
    assert g.decision["kind"] == "figure"
    assert {"type": "pass"} in g.legal_actions()


def test_clone_is_independent():
    g = carcassonne.Game("classic-everything", seed=3)
    rng = random.Random(3)
    for _ in range(40):
        g.play(rng.randrange(g.legal_action_count()))
    before = (g.turn, g.scores, g.legal_actions(), g.record())
    c = g.clone()
    assert c.legal_actions() == before[2]
    play_random(c, rng)
    assert c.is_over
    assert (g.turn, g.scores, g.legal_actions(), g.record()) == before
    assert not g.is_over
    import copy
    d = copy.deepcopy(g)
    d.play(0)
    assert g.record() == before[3]


def test_same_seed_same_game_other_seed_other_game():
    def game(seed, choices):
        g = carcassonne.Game("classic-everything", seed=seed)
        play_random(g, random.Random(choices))
        return g.record()

    assert game(11, 4) == game(11, 4)
    a, b = json.loads(game(11, 4)), json.loads(game(12, 4))
    assert [t.get("tile") for t in a["turns"]] != [t.get("tile") for t in b["turns"]]


def test_new_game_is_the_game_of_that_seed():
    g = carcassonne.Game("river", seed=0)
    h = g.new_game(21)
    play_random(h, random.Random(1))
    k = carcassonne.Game("river", seed=21)
    play_random(k, random.Random(1))
    assert h.record() == k.record()


RULE_FILES = sorted(p for p in (ROOT / "config").glob("*.toml"))


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.name)
def test_every_rule_set_in_config_plays_to_the_end(path):
    rules = str(path)
    if path.name == "house-rules.toml":
        # It names plugin files of a release build; tests/python_bindings.rs writes a copy
        # naming this build's files. Without it (and without a release build) loading
        # fails with the engine's message.
        import os
        rules = os.environ.get("CARCASSONNE_HOUSE_RULES")
        if rules is None:
            if not (ROOT / "target" / "release" / "libhouse_monastery.so").exists():
                with pytest.raises(carcassonne.RulesError) as e:
                    carcassonne.Game(str(path))
                assert "plugin file" in str(e.value) and "build it first" in str(e.value)
                return
            rules = str(path)
    for seed in (1, 2):
        g = carcassonne.Game(rules, seed=seed)
        play_random(g, random.Random(seed))
        assert g.is_over and g.failure is None
        assert json.loads(g.record())["final_scores"] == g.scores


def test_every_embedded_rule_set_by_name():
    names = carcassonne.rule_sets()
    assert "base" in names and "classic-everything" in names and "2025-everything" in names
    for name in names:
        g = carcassonne.Game(name, seed=4)
        assert g.rules_name == carcassonne.check_rules(name)
        play_random(g, random.Random(4))
        assert g.is_over


def test_rules_from_toml_text_with_options():
    text = (ROOT / "config" / "base.toml").read_text()
    # Paths in a rule set given as text are relative to the working directory.
    tiles = str(ROOT / "config" / "tiles" / "base.toml")
    text = text.replace('base = "tiles/base.toml"', f'base = "{tiles}"')
    assert tiles in text
    no_farmers = text.replace("farmers = true", "farmers = false")
    assert no_farmers != text
    g = carcassonne.Game(no_farmers, seed=1)
    assert g.rules_name == "base"
    play_random(g, random.Random(1))
    rec = json.loads(g.record())
    assert rec["rules"]["file"] == "<rules text>"
    assert not any("field" in (e.get("reason") or "") for e in rec["final_scoring"])


def test_the_bots_play_as_the_cli_does(root):
    """`carcassonne play --bots greedy,random --seed 8` ends with the same scores."""
    import os
    import subprocess

    cli = os.environ.get("CARCASSONNE_CLI")
    if not cli:
        pytest.skip("CARCASSONNE_CLI (the carcassonne binary) is set by tests/python_bindings.rs")
    out = subprocess.run([cli, "play", "--rules", "embedded:config/classic-everything.toml", "--bots",
                          "greedy,random", "--seed", "8", "--json"], check=True, capture_output=True, text=True)
    want = json.loads(out.stdout)["final_scores"]
    g = carcassonne.Game("classic-everything", seed=8)
    bots = [carcassonne.Bot("greedy", 8, 0), carcassonne.Bot("random", 8, 1)]
    while not g.is_over:
        bots[g.current_player].play(g)
    assert g.scores == want
