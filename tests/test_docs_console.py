"""The docs show what the commands print: the ```console blocks of `cardgame simulate`,
`compare` and `check` are run and compared with the page.

A ```console block is checked when every `$` line in it is a `cardgame simulate`,
`cardgame compare` or `cardgame check` command and at least one has output (a block that
only lists commands is not). The info string of the fence says what a command needs:

- ```console                            the command runs from the repository's root
                                         (bundled game names, repository paths).
- ```console file=NAME                  NAME is the page's last game shown above the
                                         block (a ```cardgame or ```cardgame-fails block),
                                         written to a temporary directory the command
                                         runs in (with links to docs/, games/, tests/).
- ```console file=NAME=PATH             NAME is the file PATH of the repository (a stage
                                         of a game the page builds, which it never shows
                                         whole: tests/data/docs/; a test below keeps it
                                         in step with the page).
- ```console slow                       too slow for the suite: the command runs with a
                                         few games, and the page must show the labels
                                         of today's report, in its order; a `check`,
                                         and a command the page shows refused (an
                                         `error:`), run as shown.

The comparison ignores the lines that hold timings (`games/s`, `moves/s`, `played ... in
N s`), which vary by machine, and the directory of the bundled games in a path. A line
`...` (any indentation) on the page stands for any number of lines of the output.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```[ \t]*$", re.S | re.M)
RUN = ("simulate", "compare", "check")
TIMING = re.compile(r"^\s*(games/s|moves/s)\s|^\s*played\s.*\bin [\d.,]+ s\b|\bin [\d.,]+ s\b")
BUNDLED = re.compile(r"(?<![\w./])(?:/\S*?/)?games/")  # /a/checkout/games/X: games/X
FEW_GAMES = "10"


class Console:
    def __init__(self, page: Path, line: int, info: str, text: str, games: list[str]) -> None:
        self.page = page
        self.line = line
        words = info.split()
        self.slow = "slow" in words
        self.files: dict[str, str] = {}  # NAME -> the text of the file
        for word in words[1:]:
            if word.startswith("file="):
                name, _, source = word[len("file="):].partition("=")
                if source:
                    self.files[name] = (ROOT / source).read_text(encoding="utf-8")
                else:
                    assert games, f"{self.id}: file={name}, but no ```cardgame block above"
                    self.files[name] = games[-1]
        self.runs: list[tuple[str, list[str]]] = []  # (command line, output lines)
        for ln in text.splitlines():
            if ln.startswith("$ "):
                self.runs.append((ln[2:], []))
            elif self.runs:
                self.runs[-1][1].append(ln)

    @property
    def id(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    def checked(self) -> bool:
        if not self.runs or not any(out for _, out in self.runs):
            return False
        for command, _ in self.runs:
            words = shlex.split(command, comments=True)
            if len(words) < 2 or words[0] != "cardgame" or words[1] not in RUN:
                return False
        return True


def consoles() -> list[Console]:
    out: list[Console] = []
    for page in sorted(DOCS.rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        games: list[str] = []
        for m in FENCE.finditer(text):
            info = m.group(1).strip()
            kind = info.split()[0] if info else ""
            if kind in ("cardgame", "cardgame-fails"):
                games.append(m.group(2))
            elif kind == "console":
                line = text.count("\n", 0, m.start()) + 1
                block = Console(page, line, info, m.group(2), games)
                if block.checked():
                    out.append(block)
    return out


def run(command: str, cwd: Path) -> list[str]:
    """The lines `cardgame ...` prints, stdout and stderr together as a terminal shows
    them (run in this process: a new interpreter per command costs a second)."""
    from cardgame.interpreter import cli
    words = shlex.split(command, comments=True)
    out = io.StringIO()
    here = Path.cwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            cli.main(words[1:])
    finally:
        os.chdir(here)
    return out.getvalue().splitlines()


def workdir(block: Console, tmp_path: Path) -> Path:
    if not block.files:
        return ROOT
    for name, text in block.files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    for shared in ("docs", "games", "tests"):
        (tmp_path / shared).symlink_to(ROOT / shared)
    return tmp_path


def normal(lines: list[str]) -> list[str]:
    return [BUNDLED.sub("games/", ln.rstrip()) for ln in lines
            if not TIMING.search(ln)]


def matches(page: list[str], real: list[str]) -> bool:
    """The page's lines are the real ones, a `...` line standing for any run of lines.
    Words are compared, not line breaks: the report wraps long lines, and a path (the
    bundled games of the checkout) may be longer or shorter than the page's."""
    parts: list[list[str]] = [[]]
    for ln in page:
        if ln.strip() == "...":
            parts.append([])
        else:
            parts[-1] += ln.split()
    pattern = ".*".join(r"\s+".join(map(re.escape, words)) for words in parts)
    return re.fullmatch(r"\s*" + pattern + r"\s*", "\n".join(real), re.S) is not None


def labels(lines: list[str]) -> list[str]:
    """A report's section labels: `  moves          ...` -> `moves`, `  phases entered
    'Trump' ...` -> `phases entered`; the seat rows, the continuation lines of a section
    and its indented details are left out."""
    out = []
    for ln in lines:
        m = re.match(r"^  ([a-z][a-z/ ]*?[a-z/])(?=\s|:|$)", ln)
        if m and not re.match(r"^p\d+$", m.group(1).split()[0]):
            out.append(m.group(1))
    return out


def with_few_games(command: str) -> str:
    words = shlex.split(command, comments=True)
    if "--games" in words:
        words[words.index("--games") + 1] = FEW_GAMES
    else:
        words += ["--games", FEW_GAMES]
    if words[1] == "simulate":
        words += ["--coverage-games", "0"]
    return shlex.join(words)


CONSOLES = consoles()


def test_the_tutorials_fixed_stage_is_the_page_with_its_fixes() -> None:
    # The tutorial shows the courtyard moves with two mistakes, says how to fix them and
    # runs the fixed file: tests/data/docs/castle-courtyard-4.cardgame is that file.
    text = (DOCS / "tutorial.md").read_text(encoding="utf-8")
    shown = [m.group(2) for m in FENCE.finditer(text)
             if m.group(1).startswith("cardgame-fails") and "cortyard" in m.group(2)]
    assert len(shown) == 1
    fixed = (shown[0].replace("top of cortyard, b", "top of courtyard, b")
             .replace("[top of courtyard.suit]", "[(top of courtyard).suit]"))
    stage = (ROOT / "tests/data/docs/castle-courtyard-4.cardgame").read_text(encoding="utf-8")
    assert fixed == stage


def test_the_docs_show_reports() -> None:
    assert len(CONSOLES) >= 20
    assert any(b.slow for b in CONSOLES)
    assert any(b.files for b in CONSOLES)


@pytest.mark.parametrize("block", [b for b in CONSOLES if not b.slow], ids=lambda b: b.id)
def test_console_output_is_what_the_command_prints(block: Console, tmp_path: Path) -> None:
    cwd = workdir(block, tmp_path)
    for command, shown in block.runs:
        real = normal(run(command, cwd))
        page = normal(shown)
        assert matches(page, real), (
            f"{block.id}: `{command}` prints something else than the page shows; it "
            "prints:\n" + "\n".join(run(command, cwd)))


def shows_an_error(command: str, shown: list[str]) -> bool:
    return command.split()[1] == "check" or any("error:" in ln for ln in shown)


@pytest.mark.parametrize("block", [b for b in CONSOLES if b.slow], ids=lambda b: b.id)
def test_slow_console_output_has_the_reports_shape(block: Console, tmp_path: Path) -> None:
    # A `check`, and a command refused before it plays, are quick: they run as shown.
    cwd = workdir(block, tmp_path)
    for command, shown in block.runs:
        if shows_an_error(command, shown):
            assert matches(normal(shown), normal(run(command, cwd))), (
                f"{block.id}: `{command}` prints something else than the page shows; it "
                "prints:\n" + "\n".join(run(command, cwd)))
            continue
        real = labels(run(with_few_games(command), cwd))
        page = labels(shown)
        assert page, f"{block.id}: `{command}`: the page shows no report"
        rest = iter(real)
        missing = [label for label in page if label not in rest]
        assert not missing, (
            f"{block.id}: `{command}`: the page shows {missing}, which today's report "
            f"(or not in this order) does not: {real}")
