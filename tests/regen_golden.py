"""(Re)build the golden cases in tests/cases/ from the evaluation corpus, then regenerate them.

    .venv/bin/python tests/regen_golden.py            # copy inputs + args, rewrite every expected
    HEADROOM_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_golden.py   # expected only

Each case is a folder tests/cases/<name>/ holding `input` (the raw bytes, copied from
../shared/corpus/<corpus id>/output.txt), `args` (the command-line options, one line, shell
quoting) and `expected` (headroom's output for them). Review `git diff tests/cases` before
committing: the expected files are the contract.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES_DIR = HERE / "cases"

# case name: (corpus id, args). Inputs stay under 300 KB.
CASES = {
    "rg-small-express-etag": ("rg-small-express-etag", "--tool Grep --budget 200"),
    "grep-rn-express-req": ("grep-rn-express-req", "--tool Grep --budget 1000"),
    "grep-rn-express-req-bash-4000": ("grep-rn-express-req", "--tool Bash --budget 4000"),
    "rg-context-tornado-io-loop": ("rg-context-tornado-io-loop", "--tool Grep --budget 1000"),
    "rg-heading-tornado-def-test": ("rg-heading-tornado-def-test", "--tool Grep --budget 1000"),
    "pip-inspect-json": ("pip-inspect-json", "--tool Bash --budget 1000"),
    "ls-laR-pydantic": ("ls-laR-pydantic", "--tool Bash --budget 1000"),
    "ls-laR-pydantic-read-400": ("ls-laR-pydantic", "--tool Read --budget 400"),
    "make-lua-link-error": ("make-lua-link-error", "--tool Bash --budget 1000"),
    "mvn-offline-gson-plugin-caused-by": ("mvn-offline-gson-plugin-caused-by",
                                          "--tool Bash --budget 1000"),
    "pip-install-v-build-failure-cchardet": ("pip-install-v-build-failure-cchardet",
                                             "--tool Bash --budget 1000"),
}

# case name: (a file of tests/real, args): real outputs made here (tests/real/README.md).
REAL_CASES = {
    "path-map-du-ah-pip": ("du-ah-pip-23.2.1-site-packages.txt", "--tool Bash --budget 1000"),
    "path-map-ls-R-pip": ("ls-R-pip-23.2.1-site-packages.txt", "--tool Bash --budget 1000"),
}


def main() -> int:
    sys.path.insert(0, str(HERE))
    from conftest import CORPUS_DIR, invoke_cli

    if not CORPUS_DIR.is_dir():
        print(f"corpus not found at {CORPUS_DIR}", file=sys.stderr)
        return 1
    sources = {name: (CORPUS_DIR / corpus_id / "output.txt", args)
               for name, (corpus_id, args) in CASES.items()}
    sources.update({name: (HERE / "real" / file, args)
                    for name, (file, args) in REAL_CASES.items()})
    for name, (source, args) in sources.items():
        case = CASES_DIR / name
        case.mkdir(parents=True, exist_ok=True)
        data = source.read_bytes()
        assert len(data) < 300_000, f"{source} is too big for a golden case"
        (case / "input").write_bytes(data)
        (case / "args").write_text(args + "\n")
        run = invoke_cli(shlex.split(args), data)
        assert run.exit_code == 0, (name, run.stderr)
        (case / "expected").write_bytes(run.stdout)
        print(f"{name}: {len(data):,} → {len(run.stdout):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
