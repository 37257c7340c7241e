"""Bad input: a ValueError subclass with the engine's one-line message, never a panic."""

import random

import pytest

import carcassonne
from carcassonne import IllegalActionError, RulesError


def one_line(e):
    s = str(e.value)
    assert "\n" not in s and s.strip() == s and s
    return s


def test_errors_are_value_errors():
    assert issubclass(RulesError, ValueError) and issubclass(IllegalActionError, ValueError)


def test_unknown_rule_set_name():
    with pytest.raises(RulesError) as e:
        carcassonne.Game("no-such-rules")
    m = one_line(e)
    assert m.startswith("embedded:config/no-such-rules.toml: no such embedded rule set (known: ")
    assert "embedded:config/base.toml" in m


def test_missing_rule_file():
    with pytest.raises(RulesError) as e:
        carcassonne.Game("/nonexistent/rules.toml")
    assert one_line(e).startswith("/nonexistent/rules.toml: cannot read rule set")


def test_bad_toml_text_names_the_line():
    with pytest.raises(RulesError) as e:
        carcassonne.Game('name = "x"\nplayers = \n')
    assert one_line(e).startswith("<rules text>:2: not valid TOML: ")


def test_unknown_plugin_in_text():
    with pytest.raises(RulesError) as e:
        carcassonne.Game('name = "x"\n[[plugins]]\nname = "no-such-plugin"\n')
    assert "no-such-plugin" in one_line(e)


def test_bad_player_count():
    with pytest.raises(RulesError) as e:
        carcassonne.Game("base", players=9)
    assert one_line(e) == "9 players: rule set 'base' allows 2 to 5"


def test_illegal_tile_placement():
    g = carcassonne.Game("base", seed=1)
    with pytest.raises(IllegalActionError) as e:
        g.play({"type": "place_tile", "tile": g.tile, "cell": [5, 5], "rotation": 0})
    assert "(5,5)" in one_line(e)
    assert g.turn == 1 and g.decision["kind"] == "place_tile"


def test_action_from_another_game():
    a, b = carcassonne.Game("base", seed=1), carcassonne.Game("base", seed=3)
    assert a.tile != b.tile
    with pytest.raises(IllegalActionError) as e:
        b.play(a.legal_actions()[0])
    assert one_line(e) == f"the record places tile {a.tile}, but tile {b.tile} was drawn"
    # A figure action of another game's board.
    a.play(0)
    b.play(0)
    foreign = {"type": "figure", "figure": "follower", "cell": [7, 7], "feature": "city:N"}
    with pytest.raises(IllegalActionError) as e:
        b.play(foreign)
    assert one_line(e).startswith('{"cell":[7,7],"feature":"city:N","figure":"follower","type":"figure"} is not legal here')


def test_bad_indices_and_types():
    g = carcassonne.Game("base", seed=1)
    n = g.legal_action_count()
    with pytest.raises(IllegalActionError) as e:
        g.play(n)
    assert one_line(e) == f"action index {n}: the decision has {n} legal actions (0 to {n - 1})"
    with pytest.raises(IllegalActionError):
        g.play(-1)
    with pytest.raises(IllegalActionError):
        g.play([1, 2])
    with pytest.raises(IllegalActionError) as e:
        g.play({"cell": [0, 1]})
    assert "has no \"type\"" in one_line(e)
    with pytest.raises(TypeError):
        g.play({"type": object()})


def test_playing_after_the_end():
    g = carcassonne.Game("base", seed=2)
    rng = random.Random(2)
    while not g.is_over:
        g.play(rng.randrange(g.legal_action_count()))
    for action in (0, {"type": "pass"}):
        with pytest.raises(IllegalActionError) as e:
            g.play(action)
        assert one_line(e) == "the game is over"
    with pytest.raises(IllegalActionError):
        g.play_slot(31, 0)
    with pytest.raises(IllegalActionError):
        carcassonne.Bot("random").play(g)


def test_unknown_bot_and_bad_simulate_arguments():
    with pytest.raises(ValueError) as e:
        carcassonne.Bot("clever")
    assert one_line(e) == "unknown bot 'clever' (known: random, greedy, mcts, mcts:N)"
    with pytest.raises(ValueError) as e:
        carcassonne.simulate("base", games=0)
    assert one_line(e) == "games 0: at least one game is needed"
    with pytest.raises(RulesError):
        carcassonne.simulate("nope", games=1)


def test_record_needs_recording():
    g = carcassonne.Game("base", record=False)
    with pytest.raises(ValueError) as e:
        g.record()
    assert one_line(e) == "this game keeps no record: start it with record=True"


def test_a_returned_dict_changed_afterwards_is_read_again():
    g = carcassonne.Game("base", seed=1)
    legal = g.legal_actions()
    d = legal[0]
    d["cell"] = [9, 9]
    with pytest.raises(IllegalActionError) as e:
        g.play(d)
    assert "(9,9)" in one_line(e)
    # An unchanged one plays; a dict of an earlier decision is read as it says.
    g.play(legal[1])
    with pytest.raises(IllegalActionError):
        g.play(legal[2])
