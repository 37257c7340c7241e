"""Speed of the Python bindings (docs/performance.md, "Python bindings").

    bindings/python/run_tests.sh --release -k nothing   # or: maturin develop --release
    python bindings/python/bench.py [--games N] [--cli target/release/carcassonne]

Random 2-player base games driven from Python, one thread: through the fast index path
(`legal_action_count` / `play_index`), through `play(i)`, and through the dicts of
`legal_actions()` played back with `play(dict)`; then `simulate` from Python against
`carcassonne simulate` (one thread, the same games).
"""

import argparse
import json
import random
import subprocess
import time

import carcassonne


def index_path(games, seed=0):
    rng = random.Random(seed)
    proto = carcassonne.Game("base", players=2, seed=0, record=False)
    start = time.perf_counter()
    for i in range(games):
        g = proto.new_game(i)
        count, play = g.legal_action_count, g.play_index
        while not g.is_over:
            play(rng.randrange(count()))
    return games / (time.perf_counter() - start)


def play_int_path(games, seed=0):
    rng = random.Random(seed)
    start = time.perf_counter()
    for i in range(games):
        g = carcassonne.Game("base", players=2, seed=i, record=False)
        while not g.is_over:
            g.play(rng.randrange(g.legal_action_count()))
    return games / (time.perf_counter() - start)


def dict_path(games, seed=0):
    rng = random.Random(seed)
    start = time.perf_counter()
    for i in range(games):
        g = carcassonne.Game("base", players=2, seed=i, record=False)
        while not g.is_over:
            legal = g.legal_actions()
            g.play(legal[rng.randrange(len(legal))])
    return games / (time.perf_counter() - start)


def best(f, games, runs=3):
    """The best of `runs` measurements (the machine is shared: the best is the least disturbed)."""
    return max(f(games) for _ in range(runs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--cli", help="the carcassonne binary, to compare simulate")
    a = ap.parse_args()
    print(f"index path (legal_action_count/play_index): {best(index_path, a.games):,.0f} base games/s")
    print(f"Game(...) per game, play(i):               {best(play_int_path, a.games // 2):,.0f} base games/s")
    print(f"dicts (legal_actions()/play(dict)):        {best(dict_path, max(a.games // 4, 10)):,.0f} base games/s")
    n = a.games * 4
    s = max((carcassonne.simulate("base", games=n, seed=1, threads=1) for _ in range(3)),
            key=lambda x: x["games_per_second"])
    print(f"simulate from Python, 1 thread:             {s['games_per_second']:,.0f} base games/s")
    if a.cli:
        cmd = [a.cli, "simulate", "--rules", "embedded:config/base.toml", "--games", str(n), "--seed", "1",
               "--threads", "1", "--json"]
        c = max((json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
                 for _ in range(3)), key=lambda x: x["games_per_second"])
        same = c["totals"] == s["totals"]
        print(f"carcassonne simulate, 1 thread:             {c['games_per_second']:,.0f} base games/s"
              f" (same totals: {same})")


if __name__ == "__main__":
    main()
