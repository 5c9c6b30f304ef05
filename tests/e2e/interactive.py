"""Claude Code in an interactive session, driven through tmux against the scripted model, for
what only its screen shows (a permission prompt). Run by the tests under `unshare -n`:

    python interactive.py --bin CLAUDE --work DIR --answer KEY --command CMD [...] [-- ARGS]

Brings loopback up, serves fake_model on 127.0.0.1, starts Claude Code in a tmux session with
HOME under DIR, types the scripted prompt, and answers every permission prompt with KEY (the
screen is saved first, as DIR/prompt_N.txt); stops when the model got every command's result
(DIR/log.jsonl, see fake_model.py) or after --timeout seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from driver import PROMPT, base_env, loopback_up  # noqa: E402
from fake_model import Script, serve  # noqa: E402

API_KEY = "sk-e2e-dummy-key-0123456789abcdef"


def onboarded(work: str, project: str) -> None:
    """~/.claude.json as after the first run: no theme picker, key and folder trusted."""
    with open(os.path.join(work, "home", ".claude.json"), "w") as out:
        json.dump({"hasCompletedOnboarding": True, "theme": "dark",
                   "lastOnboardingVersion": "2.1.330",
                   "customApiKeyResponses": {"approved": [API_KEY[-20:]], "rejected": []},
                   "projects": {project: {"hasTrustDialogAccepted": True,
                                          "hasCompletedProjectOnboarding": True}}}, out)


def drive(tmux: list[str], work: str, answer: str, results: int, timeout: float) -> int:
    """Types the prompt, answers prompts; the number of prompts answered."""
    def screen() -> str:
        return subprocess.run([*tmux, "capture-pane", "-p", "-t", "cc"], capture_output=True,
                              text=True).stdout

    prompts, sent, log = 0, False, os.path.join(work, "log.jsonl")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(1)
        text = screen()
        if not sent and "❯" in text and ("shift+tab" in text or "for shortcuts" in text):
            subprocess.run([*tmux, "send-keys", "-t", "cc", "-l", PROMPT])
            time.sleep(0.5)
            subprocess.run([*tmux, "send-keys", "-t", "cc", "Enter"])
            sent = True
        elif sent and "Do you want to proceed?" in text:
            prompts += 1
            with open(os.path.join(work, f"prompt_{prompts}.txt"), "w") as out:
                out.write(text)
            subprocess.run([*tmux, "send-keys", "-t", "cc", answer])
            time.sleep(1.5)
        elif sent and os.path.exists(log):
            with open(log) as entries:
                last = [json.loads(line) for line in entries][-1:]
            if last and len(last[0]["tool_results"]) >= results:
                return prompts
    return prompts


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--answer", default="1")
    parser.add_argument("--command", action="append", required=True)
    parser.add_argument("--path", action="append", default=[])
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("args", nargs="*")
    args = parser.parse_args()

    loopback_up()
    server = serve(Script(args.command, "Bash", os.path.join(args.work, "log.jsonl")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = base_env(args.work, args.path)
    env.update({"TERM": "xterm-256color", "ANTHROPIC_API_KEY": API_KEY,
                "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{server.server_address[1]}",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1",
                "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
                "CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY": "1", "SHELL": "/bin/bash"})
    project = os.path.join(args.work, "proj")
    os.makedirs(project, exist_ok=True)
    onboarded(args.work, project)
    tmux = ["tmux", "-L", f"headroom-e2e-{os.getpid()}", "-f", "/dev/null"]
    subprocess.run([*tmux, "new-session", "-d", "-s", "cc", "-x", "160", "-y", "50", "-c",
                    project, "-e", "HOME=" + env["HOME"], "--",
                    "env", *[f"{key}={value}" for key, value in env.items()], args.bin,
                    *args.args], check=True)
    try:
        prompts = drive(tmux, args.work, args.answer, len(args.command), args.timeout)
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
        server.shutdown()
    print(json.dumps({"prompts": prompts}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
