"""The GitHub Action (action.yml) does what docs/ci.md says, run here as a runner runs it: each
step's `run:` script in `bash --noprofile --norc -eo pipefail`, with GITHUB_STEP_SUMMARY,
GITHUB_OUTPUT, GITHUB_PATH, RUNNER_TEMP and the action's inputs set, `if:` conditions judged,
step outputs and PATH additions carried to the next step. A `uses:` step (the artifact upload)
cannot run here: the test checks it would run, and with which arguments."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
HEADROOM = Path(sys.executable).parent / "headroom"
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


@dataclass
class Run:
    """What a job saw: each step's exit status (None: skipped), output and the files."""
    statuses: dict[str, int | None] = field(default_factory=dict)
    stdout: dict[str, str] = field(default_factory=dict)
    outputs: dict[str, dict[str, str]] = field(default_factory=dict)
    uses: list[tuple[str, dict]] = field(default_factory=list)
    summary: str = ""


def value(name: str, inputs: dict, run: Run) -> str:
    """One expression the action may use; anything else is an error (the runner would know it,
    this test would not)."""
    if name.startswith("inputs."):
        return inputs[name.removeprefix("inputs.")]
    if name == "github.action_path":
        return str(ROOT)
    step = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", name)
    if step:
        return run.outputs.get(step.group(1), {}).get(step.group(2), "")
    raise AssertionError(f"action.yml uses an expression this test does not know: {name}")


def expand(text: str, inputs: dict, run: Run) -> str:
    return EXPRESSION.sub(lambda m: value(m.group(1), inputs, run), str(text))


def condition(expr: str | None, inputs: dict, run: Run, failed: bool) -> bool:
    """An `if:` as the runner judges it: success() unless a status function is named."""
    if expr is None:
        return not failed
    expr = EXPRESSION.sub(lambda m: m.group(1), expr)
    python = re.sub(r"\b(?:inputs|steps)\.[\w.-]+",
                    lambda m: repr(value(m.group(0), inputs, run)), expr)
    python = (python.replace("always()", "True").replace("success()", repr(not failed))
              .replace("failure()", repr(failed)).replace("&&", " and ").replace("||", " or "))
    judged = eval(python, {"__builtins__": {}}, {})  # noqa: S307 - our own action's conditions
    return bool(judged) and ("always()" in expr or "failure()" in expr or not failed)


def run_action(tmp_path: Path, path: str, **given: str) -> Run:
    inputs = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    inputs.update({name.replace("_", "-"): text for name, text in given.items()})
    files = {name: tmp_path / name.lower() for name in
             ("GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT", "GITHUB_PATH", "GITHUB_ENV")}
    workspace, runner_temp, home = tmp_path / "workspace", tmp_path / "runner-temp", tmp_path / "home"
    for folder in (workspace, runner_temp, home):
        folder.mkdir()
    env = {"PATH": path, "HOME": str(home), "LANG": "C.UTF-8", "CI": "true",
           "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": str(workspace),
           "GITHUB_ACTION_PATH": str(ROOT), "RUNNER_TEMP": str(runner_temp),
           "HEADROOM_LEDGER": "off", "XDG_STATE_HOME": str(tmp_path / "state"),
           "XDG_CACHE_HOME": str(tmp_path / "cache"),
           **{name: str(file) for name, file in files.items()}}
    run, failed = Run(), False
    for number, step in enumerate(ACTION["runs"]["steps"]):
        key = step.get("id", f"step{number}")
        if not condition(step.get("if"), inputs, run, failed):
            run.statuses[key] = None
            continue
        if "uses" in step:
            run.uses.append((step["uses"], {k: expand(v, inputs, run)
                                            for k, v in step.get("with", {}).items()}))
            run.statuses[key] = 0
            continue
        assert step["shell"] == "bash"
        script = tmp_path / f"{key}.sh"
        script.write_text(step["run"], encoding="utf-8")
        for file in files.values():
            file.touch()
        files["GITHUB_OUTPUT"].write_text("")
        step_env = {**env, **{k: expand(v, inputs, run) for k, v in step.get("env", {}).items()}}
        cwd = workspace / expand(step.get("working-directory", "."), inputs, run)
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                              env=step_env, cwd=cwd, capture_output=True, timeout=120)
        run.statuses[key], run.stdout[key] = done.returncode, done.stdout.decode()
        run.outputs[key] = dict(line.split("=", 1) for line in
                                files["GITHUB_OUTPUT"].read_text().splitlines() if line)
        added = [line for line in files["GITHUB_PATH"].read_text().splitlines() if line]
        env["PATH"] = os.pathsep.join([*reversed(added), path])
        failed = failed or done.returncode != 0
    run.summary = files["GITHUB_STEP_SUMMARY"].read_text(encoding="utf-8")
    return run


@pytest.fixture
def headroom_on_path(tmp_path) -> str:
    if not HEADROOM.exists():
        pytest.skip(f"no installed headroom console script in {HEADROOM.parent}")
    return os.pathsep.join([str(HEADROOM.parent), "/usr/bin", "/bin"])


FAILING = "seq 1 30000 | sed 's/^/row /'; echo 'error: boom' >&2; exit 3"


def test_a_failing_command_keeps_its_status_its_whole_log_and_a_clipped_summary(
        tmp_path, headroom_on_path):
    run = run_action(tmp_path, headroom_on_path, command=FAILING, install="false", budget="500")
    assert run.statuses == {"step0": None, "run": 3, "step2": 0}  # install skipped, upload runs
    expected = "".join(f"row {n}\n" for n in range(1, 30001)) + "error: boom\n"
    log = Path(run.outputs["run"]["log-path"])
    assert log == tmp_path / "runner-temp" / "headroom" / "headroom.log"
    assert log.read_text() == expected                       # the whole log, stdout and stderr
    assert run.stdout["run"].startswith(expected)            # and live in the job's output
    assert run.outputs["run"]["exit-status"] == "3"
    assert run.uses == [("actions/upload-artifact@v4", {"name": "headroom-log", "path": str(log)})]
    header, fence = run.summary.split("\n", 1)
    assert header.startswith("**headroom** · ") and header.endswith("· exit status 3")
    assert "The command exited with status 3." in fence
    assert "row 1\n" in fence and "error: boom\n```" in fence
    assert len(fence) < 5_000 < len(expected)
    assert run.summary.endswith("\nThe whole log: `headroom.log` (30001 lines).\n")


def test_a_command_that_passes_leaves_its_output_whole_and_exit_0(tmp_path, headroom_on_path):
    log = tmp_path / "workspace" / "logs" / "test.log"
    run = run_action(tmp_path, headroom_on_path, command="printf 'a b\\nc\\n' && true",
                     install="false", log_path="logs/test.log", artifact_name="")
    assert run.statuses == {"step0": None, "run": 0, "step2": None}  # no artifact asked for
    assert run.outputs["run"] == {"exit-status": "0", "log-path": str(log)}
    assert log.read_text() == "a b\nc\n"
    assert "\n```text\na b\nc\n```\n" in run.summary
    assert "exit status" not in run.summary.split("\n", 1)[0]


def test_the_install_step_puts_its_headroom_first_on_path_for_the_next_steps(tmp_path):
    """The install step makes a venv in RUNNER_TEMP, installs the action's own checkout into it
    and adds its bin to GITHUB_PATH. python3 is a stand-in here (no index, no build): it makes
    the venv's bin with the real headroom in it, and records what pip was asked."""
    if not HEADROOM.exists():
        pytest.skip(f"no installed headroom console script in {HEADROOM.parent}")
    stand_in = tmp_path / "stand-in"
    stand_in.mkdir()
    asked = tmp_path / "pip-asked"
    (stand_in / "python3").write_text(f"""#!/bin/sh
[ "$1 $2" = "-m venv" ] || exit 9
mkdir -p "$3/bin" && ln -s {HEADROOM} "$3/bin/headroom"
printf '#!/bin/sh\\necho "$@" >> {asked}\\n' > "$3/bin/python" && chmod +x "$3/bin/python"
""")
    (stand_in / "python3").chmod(0o755)
    run = run_action(tmp_path, os.pathsep.join([str(stand_in), "/usr/bin", "/bin"]),
                     command="command -v headroom; exit 1")
    venv = tmp_path / "runner-temp" / "headroom-venv"
    assert asked.read_text() == f"-m pip install --quiet --disable-pip-version-check {ROOT}\n"
    assert run.statuses["step0"] == 0 and run.statuses["run"] == 1
    assert run.stdout["run"].startswith(f"{venv}/bin/headroom\n")
    assert "exit status 1" in run.summary


def test_docs_ci_lists_every_input_with_its_default_and_every_output():
    page = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([\w-]+)` \| ([^|]+) \|", page, re.M))
    assert set(rows) == set(ACTION["inputs"])
    for name, spec in ACTION["inputs"].items():
        default = spec.get("default")
        assert rows[name].strip() == (f"`{default}`" if default else rows[name].strip()), name
    assert rows["command"].strip() == "(required)" and ACTION["inputs"]["command"]["required"]
    for name in ACTION["outputs"]:
        assert f"`{name}`" in page.split("Outputs:", 1)[1].split("\n\n", 1)[0], name


def gitlab_job() -> dict:
    """The GitLab CI job docs/ci.md gives, as YAML."""
    page = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    block = re.search(r"## GitLab CI\n+```yaml\n(.*?)```", page, re.S).group(1)
    (job,) = yaml.safe_load(block).values()
    return job


def test_the_gitlab_job_keeps_makes_status_and_its_store_artifact_gives_back_the_cut(
        tmp_path, headroom_on_path):
    """docs/ci.md's GitLab job, run as a shell runner runs it: its variables expanded, each
    script line in `bash -eo pipefail` in $CI_PROJECT_DIR (the install line is the one thing
    not run: headroom is on PATH already). The job fails with make's status, its log is the
    clip, and the artifact path holds the store that `headroom show` reads what was cut from."""
    if not shutil.which("make"):
        pytest.skip("make is not installed")
    job = gitlab_job()
    install, *script = job["script"]
    assert install.startswith("pip install ")
    project = tmp_path / "project"
    project.mkdir()
    (project / "Makefile").write_text("test:\n\tseq 1 30000 | sed 's/^/row /'\n"
                                      "\techo 'error: boom' >&2; exit 3\n")
    env = {"PATH": headroom_on_path, "HOME": str(tmp_path), "LANG": "C.UTF-8", "CI": "true",
           "GITLAB_CI": "true", "CI_PROJECT_DIR": str(project), "HEADROOM_LEDGER": "off",
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.update({name: os.path.expandvars(value.replace("$CI_PROJECT_DIR", str(project)))
                for name, value in job["variables"].items()})
    (tmp_path / "job.sh").write_text("\n".join(script) + "\n")
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail",
                           str(tmp_path / "job.sh")], cwd=project, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2  # make's own status for a recipe that failed
    assert "error: boom" in done.stdout and "make: *** [Makefile:" in done.stdout
    assert len(done.stdout) < 40_000 < 30_000 * len("row 10000\n")
    show = re.search(r"To retrieve: \S*headroom show ([0-9a-f]+) --lines (\d+):(\d+)",
                     done.stdout)
    assert show, done.stdout[-2000:]
    assert job["artifacts"]["when"] == "always"
    (artifact,) = job["artifacts"]["paths"]
    assert (project / artifact).is_dir()
    first, last = int(show.group(2)), int(show.group(3))
    shown = subprocess.run(["headroom", "show", show.group(1), "--lines", f"{first}:{last}"],
                           cwd=project, env={**env, "HEADROOM_STORE": artifact.rstrip("/")},
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert len(lines) == last - first + 1 and all(line.startswith("row ") for line in lines)
