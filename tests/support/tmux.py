"""`cardgame play` in a real terminal for the screen tests: a tmux server of the tests' own
and a session of a given size, read as a person reads it (send-keys, capture-pane)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator

import pytest

needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


def server(name: str) -> list[str]:
    """The tmux command of a server of the tests' own (-L): the person's sessions, or
    another run's `tmux kill-server`, never meet it."""
    return ["tmux", "-L", f"cardgame-tests-{name}-{os.getpid()}"]


def keep_server(tmux: list[str]) -> Iterator[None]:
    """For a module fixture: one server for the module, kept alive by an idle session.
    Without it the server exits when a test closes the last session, and the next
    test's `new-session` can reach the exiting server: tmux then says "server exited
    unexpectedly" (seen once in CI)."""
    if shutil.which("tmux") is None:
        yield
        return
    subprocess.run([*tmux, "new-session", "-d", "-s", "keepalive", "sleep 86400"], check=True)
    yield
    subprocess.run([*tmux, "kill-server"], capture_output=True)


class Term:
    """One tmux session running `cardgame play ARGS` at a given size, started once
    `ready` holds on its screen. `settle` waits until the screen has stopped changing
    for `rounds` looks `pause` seconds apart and no line is being carried out."""

    def __init__(self, tmux: list[str], args: list[str], cols: int = 80, rows: int = 24,
                 ready: Callable[[str], bool] = lambda s: ">" in s, rounds: int = 2,
                 pause: float = 0.08, env: dict[str, str] | None = None) -> None:
        self.tmux = tmux
        self.rounds, self.pause = rounds, pause
        self.name = f"cg-{uuid.uuid4().hex[:8]}"
        hist = f"/tmp/{self.name}.history"  # no shared history: no suggestions on the line
        cmd = " ".join([sys.executable, "-m", "cardgame.interpreter.cli", "play", *args,
                        "--history", hist])
        extra = [f"-e{k}={v}" for k, v in (env or {}).items()]  # (CARDGAME_PLAIN=1)
        subprocess.run([*tmux, "new-session", "-d", "-s", self.name, "-x", str(cols),
                        "-y", str(rows), "-e", "TERM=xterm-256color", *extra, cmd],
                       check=True)
        self.wait_for(ready)

    def screen(self) -> str:
        return subprocess.run([*self.tmux, "capture-pane", "-p", "-t", self.name],
                              capture_output=True, text=True).stdout

    def wait_for(self, ok: Callable[[str], bool], timeout: float = 10.0) -> str:
        end = time.monotonic() + timeout
        text = ""
        while time.monotonic() < end:
            text = self.screen()
            if ok(text):
                return text
            time.sleep(0.1)
        raise AssertionError("the screen never showed what was expected:\n" + text)

    def keys(self, *keys: str) -> None:
        """Keys in one burst, as a paste (one send-keys call)."""
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, *keys], check=True)

    def send(self, *keys: str) -> str:
        """Keys one at a time; the screen once it changed (or after 5 s, as it is)."""
        before = self.screen()
        for k in keys:
            subprocess.run([*self.tmux, "send-keys", "-t", self.name, k], check=True)
        try:
            return self.wait_for(lambda s: s != before, 5.0)
        except AssertionError:
            return self.screen()

    def settle(self, timeout: float = 15.0) -> str:
        """The screen once it stops changing and no line is being carried out (or,
        after `timeout`, as it is: the assertions then say what is wrong)."""
        last, same = "", 0
        end = time.monotonic() + timeout
        while same < self.rounds and time.monotonic() < end:
            time.sleep(self.pause)
            now = self.screen()
            same = same + 1 if now == last and "working…" not in now else 0
            last = now
        return last

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-session", "-t", self.name], capture_output=True)
