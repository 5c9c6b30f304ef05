#!/usr/bin/env python3
"""Used-next recall on real agent sessions: headroom against a plain head-and-tail cut.

    .venv/bin/python bench/sessions.py                 # seed 1: 400 steps, budgets 500 1000 2000
    .venv/bin/python bench/sessions.py --seed 2        # another sample of the same steps

../shared/sessions holds 168 public trajectories of coding agents (mini-SWE-agent, SWE-agent,
OpenHands, Claude Code); its extract.py turns them into steps (a command, what the agent was
shown, what it did next), and ../shared/eval/session_replay.py clips each output over the budget
with a command and counts how much of what the agent's next action took from it (paths,
`path:line`, `line N`, identifiers, quoted errors) the clip kept. Nobody tuned on these outputs:
they are the nearest thing to a user's traffic (mostly file views: cat, sed -n, nl, SWE-agent's
windows, then test runs and searches).

Both clippers run in the same invocation on the same sample: headroom (`--tool Bash`), and the
plain cut (plain_cut.py: the first 75 % of the budget's tokens in whole lines, the last 12.5 %,
one marker). headroom should keep more at every budget; the run exits 1 when it does not.
Needs ../shared beside the checkout (exit 2 without it).
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared"
EXTRACT = SHARED / "sessions" / "extract.py"
REPLAY = SHARED / "eval" / "session_replay.py"
BUDGETS = (500, 1000, 2000)


def replay(steps: Path, command: str, name: str, budgets, seed: int, out: Path) -> dict:
    args = [sys.executable, str(REPLAY), str(steps), "--cmd", command, "--name", name,
            "--seed", str(seed), "--json", str(out)]
    for budget in budgets:
        args += ["--budget", str(budget)]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return json.loads(out.read_text())["summary"]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=1, help="which sample of steps (default 1)")
    p.add_argument("--budget", type=int, action="append", help="budget (repeatable; default "
                   + ", ".join(map(str, BUDGETS)) + ")")
    args = p.parse_args(argv)
    if not (EXTRACT.is_file() and REPLAY.is_file()):
        print(f"sessions.py: {SHARED} is not beside this checkout", file=sys.stderr)
        return 2
    budgets = tuple(sorted(set(args.budget or BUDGETS)))
    bin_dir = Path(sys.executable).parent
    headroom = bin_dir / "headroom"
    ours = (f"{shlex.quote(str(headroom))} --tool Bash --budget {{budget}}" if headroom.exists()
            else f"{shlex.quote(sys.executable)} -m headroom_cli --tool Bash --budget {{budget}}")
    plain = f"{shlex.quote(sys.executable)} {shlex.quote(str(HERE / 'plain_cut.py'))} {{budget}}"
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        steps = folder / "steps.jsonl"
        subprocess.run([sys.executable, str(EXTRACT), str(SHARED / "sessions" / "raw"),
                        str(steps)], check=True, stdout=subprocess.DEVNULL)
        figures = {name: replay(steps, command, name, budgets, args.seed, folder / f"{name}.json")
                   for name, command in (("headroom", ours), ("plain cut", plain))}
    print(f"used-next recall on real agent sessions (seed {args.seed}; steps over the budget)")
    print(f"{'budget':>6s} {'steps':>6s} {'headroom':>9s} {'plain cut':>10s}")
    worse = 0
    for budget in budgets:
        ours_at, plain_at = figures["headroom"][str(budget)], figures["plain cut"][str(budget)]
        worse += ours_at["used_next_recall"] < plain_at["used_next_recall"]
        print(f"{budget:>6d} {ours_at['clipped_steps']:>6d} {ours_at['used_next_recall']:>9.3f} "
              f"{plain_at['used_next_recall']:>10.3f}")
    print(f"SUMMARY: headroom keeps more than the plain cut at {len(budgets) - worse} of "
          f"{len(budgets)} budgets")
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
