"""Retrieval memory: `headroom show` and `store list` on a large stored output (issue 12 item 3).

    .venv/bin/python bench/retrieval.py            # a 300 MB stored output (~1 min)
    .venv/bin/python bench/retrieval.py --mb 50    # smaller, quicker

Stores one generated log of --mb megabytes (through `headroom`, as a clip stores it), then
measures the peak RSS (`ru_maxrss` from os.wait4) of each retrieval, and of `headroom store
path` as the reference in the same run (the start-up footprint). Targets: `show ID --head 1`
under 120 MB and `store list` under 60 MB; every other selection under 120 MB as well. Prints
each figure with its ratio to the reference, PASS or FAIL, and exits 1 when any check fails.
MB is 10^6 bytes.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

HEADROOM = [sys.executable, "-m", "headroom_cli"]
SHOW_LIMIT_MB = 120
LIST_LIMIT_MB = 60


def generate(path: str, size: int) -> None:
    """A deterministic log: INFO lines, a WARN every 97th, an ERROR every 20,011th."""
    with open(path, "wb") as out:
        number, written = 0, 0
        while written < size:
            lines = []
            for _ in range(10_000):
                level = b"ERROR" if number % 20011 == 0 else b"WARN " if number % 97 == 0 else (
                    b"INFO ")
                lines.append(b"2024-05-01T12:00:00 %s worker-%d handled request %d in %d ms\n"
                             % (level, number % 7, number, number % 997))
                number += 1
            chunk = b"".join(lines)
            out.write(chunk)
            written += len(chunk)


def peak_rss_mb(args: list[str], env: dict) -> tuple[float, int]:
    """Peak RSS of one headroom run, and its exit status; its output is discarded."""
    with open(os.devnull, "wb") as null:
        process = subprocess.Popen(HEADROOM + args, stdout=null, stderr=null, env=env)
        _, status, usage = os.wait4(process.pid, 0)
    return usage.ru_maxrss * 1024 / 1e6, os.waitstatus_to_exitcode(status)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=300, help="size of the stored output (MB)")
    options = parser.parse_args()
    work = tempfile.mkdtemp(prefix="headroom-retrieval-")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEADROOM_")}
    env.update(HEADROOM_STORE=os.path.join(work, "store"), HEADROOM_LEDGER="off",
               HEADROOM_STORE_MAX_BYTES="4G", XDG_STATE_HOME=os.path.join(work, "state"),
               XDG_CONFIG_HOME=os.path.join(work, "config"))
    source = os.path.join(work, "input.log")
    generate(source, options.mb * 1_000_000)
    with open(source, "rb") as stdin:
        clip = subprocess.run(HEADROOM + ["--budget", "2000"], stdin=stdin, env=env,
                              capture_output=True, check=True)
    item_id = re.search(rb"headroom show ([0-9a-f]{12})", clip.stdout)[1].decode()
    total_lines = sum(1 for _ in open(source, "rb"))
    reference, _ = peak_rss_mb(["store", "path"], env)
    print(f"stored output: {os.path.getsize(source) / 1e6:,.0f} MB, {total_lines:,} lines, "
          f"id {item_id}; reference (headroom store path): {reference:.1f} MB")
    middle = total_lines // 2
    checks = [
        (["show", item_id, "--head", "1"], SHOW_LIMIT_MB),
        (["show", item_id, "--tail", "1"], SHOW_LIMIT_MB),
        (["show", item_id, "--lines", f"{middle}:{middle + 10}"], SHOW_LIMIT_MB),
        (["show", item_id, "--bytes", "1000000:1001000"], SHOW_LIMIT_MB),
        (["show", item_id, "--grep", "ERROR"], SHOW_LIMIT_MB),
        (["show", item_id, "--grep", "INFO"], SHOW_LIMIT_MB),  # millions of hits, clipped
        (["store", "list"], LIST_LIMIT_MB),
    ]
    failed = 0
    for args, limit in checks:
        rss, status = peak_rss_mb(args, env)
        ok = status == 0 and rss <= limit
        failed += not ok
        print(f"{'headroom ' + ' '.join(args):<60} {rss:7.1f} MB  "
              f"({rss / reference:4.1f} x reference)  limit {limit} MB  "
              f"{'PASS' if ok else 'FAIL'}{'' if status == 0 else f' (exit {status})'}")
    print(f"SUMMARY: {len(checks) - failed} of {len(checks)} passed")
    subprocess.run(["rm", "-rf", work], check=False)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
