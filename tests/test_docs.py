"""The documentation's examples are real: every game in the docs compiles.

The scheme (also described at the top of docs/language.md), by the fence's info string:

- ```cardgame                  a complete game file: after comments and blank lines it
                                starts with `game "`. It must compile, as `cardgame check`
                                would (an `extends` finds the bundled games), and play
                                20 random games without a rule error.
- ```cardgame rule-error       the same, shown for its rule error: its games must hit one.
- ```cardgame-snippet          a fragment: declarations, statements or one expression. It
                                must parse (and build) as part of a game: as declarations,
                                else as the body of a `flow { }`, else as an expression.
- ```cardgame-snippet from=P   also a quotation: its text must appear, line for line
                                (leading spaces aside), in the file P of the repository.
- ```cardgame-fails            a complete game that must NOT compile; every `error:` and
                                `hint:` line it produces must appear in the next fenced
                                block (the output the page shows).
- docs/examples/*.cardgame     complete games; they must compile, and the tutorial's last
                                ```cardgame block is docs/examples/castle-courtyard.cardgame.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cardgame.interpreter.engine import compile_loaded
from cardgame.interpreter.errors import Diagnostic, Diagnostics
from cardgame.interpreter.lang.builder import build_module
from cardgame.interpreter.lang.loader import load

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXAMPLES = DOCS / "examples"
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```[ \t]*$", re.S | re.M)


class Block:
    def __init__(self, page: Path, line: int, info: str, text: str, after: str) -> None:
        self.page = page
        self.line = line
        self.info = info.strip()
        self.kind = self.info.split()[0] if self.info else ""
        self.text = text
        self.after = after  # the text of the next fenced block, if any

    @property
    def id(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    def option(self, key: str) -> str | None:
        for word in self.info.split()[1:]:
            if word.startswith(key + "="):
                return word[len(key) + 1:]
        return None


def blocks() -> list[Block]:
    out: list[Block] = []
    for page in sorted(DOCS.rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        found = list(FENCE.finditer(text))
        for i, m in enumerate(found):
            after = found[i + 1].group(2) if i + 1 < len(found) else ""
            line = text.count("\n", 0, m.start()) + 1
            out.append(Block(page, line, m.group(1), m.group(2), after))
    return out


ALL = blocks()
GAMES = [b for b in ALL if b.kind == "cardgame"]
SNIPPETS = [b for b in ALL if b.kind == "cardgame-snippet"]
FAILS = [b for b in ALL if b.kind == "cardgame-fails"]


def first_code_line(text: str) -> str:
    for ln in text.splitlines():
        s = ln.strip()
        if s and not s.startswith("#"):
            return s
    return ""


def compile_text(text: str, tmp_path: Path, name: str = "example.cardgame") -> object:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return compile_loaded(load(path))


def test_the_docs_have_examples() -> None:
    assert len(GAMES) >= 6
    assert len(SNIPPETS) >= 50
    assert FAILS
    assert all(b.kind for b in ALL if b.text.lstrip().startswith('game "')), \
        "a fenced game without an info string is never checked: mark it ```cardgame"


@pytest.mark.parametrize("block", GAMES, ids=lambda b: b.id)
def test_complete_games_compile(block: Block, tmp_path: Path) -> None:
    assert first_code_line(block.text).startswith('game "'), (
        f"{block.id}: a ```cardgame block is a complete game that starts with game \"...\"; "
        "mark a fragment ```cardgame-snippet")
    try:
        compile_text(block.text, tmp_path)
    except (Diagnostic, Diagnostics) as e:
        pytest.fail(f"{block.id}: the example does not compile:\n{e}")


@pytest.mark.parametrize("block", GAMES, ids=lambda b: b.id)
def test_complete_games_play_without_rule_errors(block: Block, tmp_path: Path) -> None:
    # A reader copies these games and runs `cardgame simulate` on them: compiling is not
    # enough (the language reference's first game once failed in every game: its score
    # read the top of an empty pile before anyone had drawn).
    from cardgame.interpreter.analysis import simulate
    game = compile_text(block.text, tmp_path)
    players = game.checked.player_range  # type: ignore[attr-defined]
    for n in sorted({players[0], players[1]}):
        sim = simulate(tmp_path / "example.cardgame", 20, 1, 5_000,
                       players=n)
        bad = [r for r in sim.records if r.outcome == "rule-error"]
        if "rule-error" in block.info.split():  # a game shown for its rule error
            assert bad, f"{block.id}: marked rule-error, but no game hit one"
        else:
            assert not bad, f"{block.id}, {n} players: {bad[0].error}"


def _builds(text: str) -> Exception | None:
    try:
        build_module(text, "snippet.cardgame")
    except Diagnostic as e:
        return e
    return None


@pytest.mark.parametrize("block", SNIPPETS, ids=lambda b: b.id)
def test_snippets_parse(block: Block) -> None:
    text = block.text
    errors = []
    for wrapped in (text, "flow {\n" + text + "\n}", "def snippet_value =\n" + text):
        err = _builds(wrapped)
        if err is None:
            break
        errors.append(err)
    else:
        pytest.fail(f"{block.id}: the snippet parses neither as declarations, nor as "
                    f"statements, nor as an expression:\n{errors[0]}")
    source = block.option("from")
    if source is not None:
        quoted = (ROOT / source).read_text(encoding="utf-8")
        squash = lambda s: "\n".join(ln.strip() for ln in s.strip().splitlines())  # noqa: E731
        assert squash(text) in squash(quoted), (
            f"{block.id}: the quotation is not (or no longer) in {source}")


@pytest.mark.parametrize("block", FAILS, ids=lambda b: b.id)
def test_failing_examples_fail_as_shown(block: Block, tmp_path: Path) -> None:
    name = block.option("file") or "example.cardgame"
    try:
        compile_text(block.text, tmp_path, name)
    except Diagnostics as e:
        items = e.items
    except Diagnostic as e:
        items = [e]
    else:
        pytest.fail(f"{block.id}: this example should not compile")
    for d in items:
        assert f"error: {d.message}" in block.after, (
            f"{block.id}: the page does not show the real error:\n{d.format()}")
        if d.hint:
            assert f"hint: {d.hint}" in block.after, (
                f"{block.id}: the page does not show the real hint:\n{d.format()}")


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.cardgame")), ids=lambda p: p.name)
def test_example_files_compile(path: Path) -> None:
    game = compile_loaded(load(path))
    low, high = game.checked.player_range  # type: ignore[attr-defined]
    assert low >= 1 and high >= low


def test_the_tutorial_ends_with_the_example_file() -> None:
    tutorial = [b for b in GAMES if b.page.name == "tutorial.md"]
    assert tutorial, "the tutorial shows its game"
    final = (EXAMPLES / "castle-courtyard.cardgame").read_text(encoding="utf-8")
    assert tutorial[-1].text.strip() == final.strip(), (
        "the tutorial's last ```cardgame block and docs/examples/castle-courtyard.cardgame "
        "differ: keep them the same")


def test_the_tutorial_example_keeps_its_invariants() -> None:
    """A few random games of the tutorial's variant at each column count: the invariants
    it declares hold in every position (what `cardgame fuzz` checks at length)."""
    import random

    from cardgame.interpreter.engine import compile_game

    for columns in ("8", "12"):
        game = compile_game(EXAMPLES / "castle-courtyard.cardgame", None, {"columns": columns})
        rng = random.Random(columns)
        for seed in range(3):
            state = game.new_state(seed)
            while not game.is_terminal(state):
                assert game.check_invariants(state) == []
                legal = game.legal_moves(state)
                assert legal, "a dead end"
                state = game.apply(state, legal[rng.randrange(len(legal))])
