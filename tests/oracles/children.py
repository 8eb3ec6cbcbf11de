"""Command lines run in one child Python under a time limit: for the tests of inputs that once hung in C (building
10**999999999, which no alarm interrupts), where a hang must fail the test, not stall the suite. One child for a
test file's cases pays oddscalc's imports once (about a second of CPU a child) instead of once a case."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass

# the child: each command line through the click entry point in process, its exit code, standard error and output
# apart, any exception other than the exit as its repr, and the seconds it took
_CHILD = """
import json, sys, time
from click.testing import CliRunner
from oddscalc.cli.main import main
out = {}
for name, args in json.loads(sys.stdin.read()).items():
    start = time.monotonic()
    r = CliRunner().invoke(main, args, prog_name="oddscalc")
    raised = None if r.exception is None or isinstance(r.exception, SystemExit) else repr(r.exception)
    out[name] = [r.exit_code, r.stderr, r.stdout, raised, time.monotonic() - start]
print(json.dumps(out))
"""


@dataclass(frozen=True)
class Ran:
    """One command line's run in the child."""

    code: int
    stderr: str
    stdout: str
    raised: str | None  # an exception other than the command's exit (a traceback in a terminal)
    seconds: float


def run_in_one_child(commands: dict[str, list[str]], timeout: float) -> dict[str, Ran]:
    """Each named command line (``oddscalc``'s arguments) run in turn in one child Python, ``timeout`` seconds for
    all of them; the child's own failure (an import error, say) fails here with its standard error."""
    done = subprocess.run([sys.executable, "-c", _CHILD], input=json.dumps(commands), capture_output=True, text=True,
                          timeout=timeout, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return {name: Ran(*row) for name, row in json.loads(done.stdout).items()}
