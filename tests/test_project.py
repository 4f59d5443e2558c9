"""The project's own promises: README commands, CI, packaging."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```sh\n(.*?)\n```", text, re.S)


def test_readme_opens_with_two_commands() -> None:
    cmds = readme_commands()
    assert len(cmds) >= 2
    assert "cardgame" in cmds[0]
    assert "pytest" in cmds[1]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert readme_commands()[1] in ci


def test_cardgame_command_is_installed() -> None:
    out = subprocess.run([sys.executable, "-m", "cardgame.interpreter.cli", "list"],
                         capture_output=True, text=True, cwd="/")
    assert out.returncode == 0, out.stderr
    assert "calculation" in out.stdout
    assert "besieged-castle-spice-2" in out.stdout


def test_no_bare_top_level_modules_are_installed() -> None:
    import importlib.util

    spec = importlib.util.find_spec("cardgame.interpreter")
    assert spec is not None and spec.origin is not None
    # the installed package is reachable under the namespace only
    out = subprocess.run([sys.executable, "-c", "import interpreter"], capture_output=True,
                         cwd="/")
    assert out.returncode != 0


def test_pyproject_lists_every_package() -> None:
    """A subpackage missing from pyproject's list is silently absent from a real install."""
    import tomllib

    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(conf["tool"]["setuptools"]["packages"])
    dirs = conf["tool"]["setuptools"]["package-dir"]
    on_disk = set()
    for pkg, folder in dirs.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder).parts
            on_disk.add(".".join((pkg, *rel)))
    assert on_disk - listed == set(), f"add to pyproject.toml packages: {sorted(on_disk - listed)}"
