"""The regulator's tools with the counts stored: compare, solve, verify (new process each, best of N).

Targets: compare caribbean 0.5 s, solve caribbean 0.6 s, verify (every shipped table) 1.5 s; the
other commands are shown for reference.

Run: ``python benchmarks/bench_tools.py [repeats]``
"""

from __future__ import annotations

import sys

from common import Targets, best_cli, cli, scratch

COMMANDS: list[tuple[list[str], float | None]] = [
    (["compare", "caribbean", "us", "spain"], 0.5),
    (["solve", "caribbean", "--table", "us", "--pay", "royal_flush", "--edge", "5%"], 0.6),
    (["solve", "caribbean", "--table", "us", "--pay", "high_card", "--edge", "4%"], 0.6),
    (["verify"], 1.5),
    (["compare", "let-it-ride", "standard", "royal-500"], None),
    (["compare", "punto-banco", "standard", "ez-baccarat"], None),
    (["solve", "let-it-ride", "--pay", "main.full_house", "--edge", "3%"], None),
]


def main() -> int:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    out = Targets("tools")
    env = {"ODDSCALC_CACHE_DIR": scratch("tools")}
    cli(["verify"], env)  # fills the store with every shipped table's counts
    for command, target in COMMANDS:
        best, _ = best_cli(repeats, command, env)
        out.seconds(" ".join(command), best, target)
    return out.finish()


if __name__ == "__main__":
    sys.exit(main())
