"""The project's own promises: README commands, CI, packaging."""

from __future__ import annotations

import fnmatch
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
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


def installed_layout(dest: Path) -> Path:
    """What a non-editable install puts in site-packages: the packages pyproject lists
    (their modules, not their subfolders) and the declared package data, nothing else."""
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    tool = conf["tool"]["setuptools"]
    dirs: dict[str, str] = tool["package-dir"]
    data: dict[str, list[str]] = tool.get("package-data", {})
    for pkg in tool["packages"]:
        top = max((p for p in dirs if pkg == p or pkg.startswith(p + ".")), key=len)
        src = ROOT / dirs[top] / pkg[len(top):].lstrip(".").replace(".", "/")
        out = dest.joinpath(*pkg.split("."))
        out.mkdir(parents=True)
        for f in src.iterdir():
            wanted = f.suffix == ".py" or any(fnmatch.fnmatch(f.name, g)
                                              for g in data.get(pkg, ()))
            if f.is_file() and wanted:
                shutil.copy(f, out / f.name)
    return dest


def test_a_real_install_works_read_only_from_anywhere(tmp_path: Path) -> None:
    """Every module of the tree is installed and imports, the grammar and the games are
    package data, and nothing writes into the installed tree (a system install is
    read-only)."""
    site = installed_layout(tmp_path / "site")
    files = sorted(site.rglob("*"))
    dirs = [p for p in files if p.is_dir()]
    for d in dirs:
        d.chmod(0o555)  # (root may write all the same: the listing is compared below)
    code = """
import importlib, sys
import cardgame.interpreter, cardgame.repl
assert cardgame.interpreter.__file__.startswith(sys.argv[1]), cardgame.interpreter.__file__
for name in sys.argv[2:]:
    importlib.import_module(name)
importlib.import_module("cardgame.repl.app")
from cardgame.interpreter.cli import main
from cardgame.interpreter.engine import compile_game
compile_game("arsene", 4)
sys.exit(main(["check", "--quiet", "calculation", "chains", "interaction"]))
"""
    dirs_of = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8")
                            )["tool"]["setuptools"]["package-dir"]
    modules = []
    for pkg, folder in dirs_of.items():
        for f in sorted((ROOT / folder).rglob("*.py")):
            parts = f.relative_to(ROOT / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]  # a package is named by its folder
            modules.append(".".join((pkg, *parts)))
    # -S: no .pth files, so not the editable install's finder, which would fill any gap
    # from the repository; the dependencies come from site-packages on the path
    path = os.pathsep.join((str(site), sysconfig.get_paths()["purelib"]))
    env = {**os.environ, "PYTHONPATH": path, "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        out = subprocess.run([sys.executable, "-S", "-c", code, str(site), *modules],
                             capture_output=True, text=True, cwd="/", env=env, timeout=120)
    finally:
        for d in dirs:
            d.chmod(0o755)
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    assert sorted(site.rglob("*")) == files
