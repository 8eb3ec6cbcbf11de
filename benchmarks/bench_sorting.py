"""Punto banco's glimpses, 8 decks, nothing stored: each model counted exactly, and the search over every sort.

- ``glimpse punto-banco --model edge-sort-first-card`` and ``edge-sort-first-four`` (a new process each):
  target 20 s each;
- ``glimpse punto-banco --model burn-card-seen`` (the burn card's rank; the four unseen cards and the two draws
  counted by value for each of ten burn values): target 60 s;
- ``glimpse punto-banco --model edge-sort-first-four --search-sorts 10``: every one of the 1,023 two-group sorts of
  the ten values of the first four cards (the issue asks under 10 minutes on two cores): target 120 s.

Run: ``python benchmarks/bench_sorting.py [repeats]``
"""

from __future__ import annotations

import sys

from common import Targets, best_cli, scratch


def main() -> int:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    out = Targets("glimpse punto-banco (new processes, nothing stored)")
    env = {"ODDSCALC_CACHE_DIR": scratch("sorting"), "ODDSCALC_NO_CACHE": "1"}
    cases = [("first card's group (edge-sort-first-card)", ["--model", "edge-sort-first-card"], 20.0),
             ("first four cards' groups (edge-sort-first-four)", ["--model", "edge-sort-first-four"], 20.0),
             ("the burn card's rank (burn-card-seen)", ["--model", "burn-card-seen"], 60.0),
             ("every sort of the first four: 1,023 (--search-sorts 10)",
              ["--model", "edge-sort-first-four", "--search-sorts", "10"], 120.0)]
    for label, args, target in cases:
        seconds, runs = best_cli(repeats, ["glimpse", "punto-banco", *args], env)
        out.seconds(label, seconds, target, f"runs {', '.join(f'{r:.1f}' for r in runs)}")
    return out.finish()


if __name__ == "__main__":
    sys.exit(main())
