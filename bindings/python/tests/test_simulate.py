"""`simulate` from Python: the summary `carcassonne simulate --json` prints."""

import json
import os
import subprocess

import pytest

import carcassonne

TIMING = {"wall_seconds", "games_per_second", "threads"}


def test_summary_numbers():
    s = carcassonne.simulate("base", games=40, seed=3, threads=1)
    assert s["format"] == "carcassonne-summary/1"
    assert s["games"] == 40 and s["players"] == 2 and s["bots"] == ["random", "random"]
    assert s["rules"]["file"] == "embedded:config/base.toml"
    hist = s["totals"]["score_histogram"]
    assert [sum(n for _, n in h) for h in hist] == [40, 40]
    assert abs(sum(s["win_rate"]) - 1.0) < 1e-9


def test_same_numbers_for_any_thread_count():
    a = carcassonne.simulate("classic-everything", games=6, seed=2, bots=["greedy", "random"], threads=1)
    b = carcassonne.simulate("classic-everything", games=6, seed=2, bots=["greedy", "random"], threads=2)
    assert {k: v for k, v in a.items() if k not in TIMING} == {k: v for k, v in b.items() if k not in TIMING}


def test_same_numbers_as_the_cli():
    cli = os.environ.get("CARCASSONNE_CLI")
    if not cli:
        pytest.skip("CARCASSONNE_CLI (the carcassonne binary) is set by tests/python_bindings.rs")
    out = subprocess.run([cli, "simulate", "--rules", "embedded:config/river.toml", "--games", "30", "--seed", "4",
                          "--bots", "random,greedy", "--json", "--threads", "1"],
                         check=True, capture_output=True, text=True)
    printed = json.loads(out.stdout)
    assert printed["format"] == "carcassonne-simulate/1"
    (want,) = printed["summaries"]  # one rule set, one summary
    got = carcassonne.simulate("river", games=30, seed=4, bots=["random", "greedy"], threads=1)
    assert {k: v for k, v in got.items() if k not in TIMING} == {k: v for k, v in want.items() if k not in TIMING}
