"""The full-screen table through a real terminal: tmux at 80x24, send-keys, capture-pane.

For every bundled game: the person's hand (where the game has hands), the cards in play
and the scores are on screen at the start and after several moves. The captures of
Calculation and Arsène are the ones in docs/repl.md (CARDGAME_REGEN_DOCS=1 rewrites them).
Also: the `table` block's checks, sorted hands, cards labelled with who played them.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.errors import CardgameError
from cardgame.interpreter.lang import check, load
from support import tmux as tmux_

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "repl.md"
CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")
# a tmux server of the tests' own, and `cardgame play` in a session of it (support/tmux.py)
tmux = tmux_.needs_tmux
TMUX = tmux_.server("screen")


@pytest.fixture(scope="module", autouse=True)
def tmux_server():  # type: ignore[no-untyped-def]
    yield from tmux_.keep_server(TMUX)


class Term(tmux_.Term):
    """One tmux session running `cardgame play` at a given size."""

    def __init__(self, args: list[str], cols: int = 80, rows: int = 24) -> None:
        super().__init__(TMUX, args, cols, rows)


def play(args: list[str], moves: int, cols: int = 80, rows: int = 24) -> list[str]:
    """The screens at the start and after each of `moves` first moves."""
    t = Term(args, cols, rows)
    try:
        shots = [t.settle()]
        for _ in range(moves):
            t.send("1", "Enter")
            shots.append(t.settle())
        return shots
    finally:
        t.close()


def hand_row(screen: str) -> str:
    return next((ln for ln in screen.splitlines() if ln.startswith("p1 you")), "")


GAMES = [
    ("calculation", ["stock", "pile 1", "waste1", "score"]),
    ("besieged-castle", ["foundation ♠", "column1", "score"]),
    ("besieged-castle-spice-1", ["foundation ♠", "column1", "score"]),
    ("besieged-castle-spice-2", ["foundation ♠", "column1", "score"]),
    ("chains", ["terminal cards", "work area", "slot1", "score"]),
    ("chains-advanced", ["terminal cards", "work area", "slot1", "score"]),
    ("interaction", ["center card", "hand", "field", "score"]),
    ("arsene", ["stores A..5", "trump card", "trick", "hand", "score"]),
    ("pyramid", ["pyramid", "stock", "waste", "removed", "score"]),
    ("golf", ["column1", "column7", "stock", "waste", "score"]),
    ("oh-hell", ["turned trump", "trick", "hand", "bid", "trumps", "score"]),
    ("blackjack", ["dealer", "hole card", "hand", "stake"]),
    ("crazy-eights", ["discard pile", "stock", "hand", "score"]),
    ("klondike", ["stock", "waste", "foundation ♠", "column7", "▒▒", "score"]),
    ("freecell", ["free cell", "foundation ♠", "column8", "score"]),
    ("scopa", ["table", "captured", "score"]),
    ("hearts", ["trick", "hand", "score"]),
]


@tmux
@pytest.mark.parametrize(("game", "words"), GAMES, ids=[g for g, _ in GAMES])
def test_the_table_fits_80x24(game: str, words: list[str]) -> None:
    shots = play([game, "--seed", "5"], 4)
    for shot in shots:
        lines = shot.splitlines()
        assert len(lines) <= 24
        for w in words:
            assert w in shot, f"{w!r} is not on the screen:\n{shot}"
        assert "your turn" in shot or "game over" in shot or "to move" in shot, shot
        if "hand" in words:  # the person's own hand: their cards, face up, on one row
            assert CARD.search(hand_row(shot)), shot
        assert "Traceback" not in shot
    assert shots[0] != shots[-1]


@tmux
def test_arsene_trick_says_who_played_each_card() -> None:
    shots = play(["arsene", "--seed", "21"], 3)
    trick = next(ln for ln in shots[0].splitlines() if ln.startswith("trick"))
    assert re.search(r"p3 3♣\s+p4 4♣", trick), trick
    assert all("trick_winner" not in s and "store_has_emptied" not in s and "exempt" not in s
               for s in shots)
    assert any("last trick:" in s for s in shots[1:]), shots[-1]


@tmux
def test_calculation_long_waste_pile_keeps_the_table_on_screen() -> None:
    # discard onto waste 1 again and again: the pile grows past the screen's height
    t = Term(["calculation", "--seed", "21"])
    try:
        for _ in range(16):
            t.send("discard 1", "Enter")
            t.send("draw", "Enter")
        shot = t.settle()
    finally:
        t.close()
    assert "stock" in shot and "pile 1" in shot and "score" in shot, shot
    assert re.search(r"^\+\d+", shot.split("waste1", 1)[1].splitlines()[1]), shot


@tmux
def test_a_line_wider_than_the_screen_wraps_and_is_read_whole() -> None:
    # the hint names the bot, the move and what it does: about 100 characters
    t = Term(["calculation", "--seed", "3"])
    try:
        t.send("hint", "Enter")
        shot = t.settle()
        for _ in range(20):  # the search takes a moment
            if "your score stays" in shot:
                break
            time.sleep(0.5)
            shot = t.settle()
    finally:
        t.close()
    start = next(i for i, ln in enumerate(shot.splitlines()) if ln.startswith("hint ("))
    text = " ".join(ln.strip() for ln in shot.splitlines()[start:start + 2])
    assert re.search(r"waste pile \d; your score stays \d+\)", text), shot


def test_wrap_messages_keeps_short_lines_and_indents_the_rest() -> None:
    from cardgame.repl.screen import wrap_messages

    long = "hint (bot, 300 iterations): " + "word " * 20
    out = wrap_messages(["short", long], 40)
    assert out[0] == "short"
    assert len(out) > 2 and all(len(x) <= 40 for x in out)
    assert all(x.startswith("  ") for x in out[2:])
    assert " ".join(x.strip() for x in out[1:]).split() == long.split()


@tmux
def test_hot_seat_hands_over() -> None:
    t = Term(["interaction", "--players", "3", "--seat", "1", "--seat", "2", "--seed", "3"])
    try:
        shots = [t.settle()]
        for _ in range(4):
            t.send("1", "Enter")
            shots.append(t.settle())
            if "Hand over" in shots[-1]:
                break
        assert "Hand over to p" in shots[-1]
        assert not CARD.search(shots[-1].split("Hand over")[0]), shots[-1]
        t.send("Enter")
        after = t.settle()
        assert "Hand over" not in after and "hand" in after
    finally:
        t.close()


@tmux
def test_docs_hold_the_current_captures() -> None:
    """docs/repl.md shows 80x24 captures of Calculation and Arsène, taken here."""
    caps = {"calculation": play(["calculation", "--seed", "7"], 4)[-1],
            "arsene": play(["arsene", "--seed", "21"], 2)[-1]}
    text = DOC.read_text(encoding="utf-8")
    for name, shot in caps.items():
        block = "\n".join(ln.rstrip() for ln in shot.rstrip("\n").splitlines())
        begin, end = f"<!-- capture:{name} -->\n```text\n", "\n```\n<!-- /capture -->"
        pat = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
        assert pat.search(text), f"docs/repl.md has no capture block for {name}"
        if os.environ.get("CARDGAME_REGEN_DOCS"):
            text = pat.sub(lambda _m, b=begin + block + end: b, text)
        else:
            current = pat.search(text).group(0)[len(begin):-len(end)]  # type: ignore[union-attr]
            assert current == block, (f"docs/repl.md's {name} capture is out of date "
                                      "(CARDGAME_REGEN_DOCS=1 rewrites it)")
    DOC.write_text(text, encoding="utf-8")


# ---------------------------------------------------------------------- the table block
def _check(src: str, tmp_path: Path) -> str:
    p = tmp_path / "t.cardgame"
    p.write_text(src, encoding="utf-8")
    try:
        check(load(p))
    except CardgameError as e:
        return str(e)
    return ""


BASE = """game "T"
players 2
deck standard
zone hand[player]: owner, fanned
zone pile: face up, row
var made = 0
var secret_total = 0
flow { repeat { 1 chooses go } }
move go { made += 1 }
"""


@pytest.mark.parametrize(("block", "message"), [
    ('table { group "x": hnad }', "unknown name 'hnad' in the table block"),
    ('table { show pile }', "'pile' is a zone; this line takes variables"),
    ('table { sort hand by colour }', "unknown sort key 'colour'"),
    ('table { label pile by seat }', "cards are labelled by player"),
    ('table { group "a": pile group "b": pile }', "'pile' is already in a group"),
    ('table { group "a": pile hide pile }', "'pile' is both in a group and hidden"),
])
def test_table_block_errors(block: str, message: str, tmp_path: Path) -> None:
    assert message in _check(BASE + block, tmp_path)


def test_table_block_hint(tmp_path: Path) -> None:
    from cardgame.interpreter.errors import Diagnostic

    p = tmp_path / "t.cardgame"
    p.write_text(BASE + 'table { group "x": hnad }', encoding="utf-8")
    with pytest.raises(Diagnostic) as e:
        check(load(p))
    assert e.value.hint == "did you mean 'hand'?" and e.value.span.line == 10


def test_table_block_decides_what_is_shown(tmp_path: Path) -> None:
    from cardgame.repl.render import plain, render_table
    from cardgame.repl.session import Session

    p = tmp_path / "t.cardgame"
    p.write_text(BASE + 'table { group "players": hand show made "moves made" }\n',
                 encoding="utf-8")
    game = compile_game(str(p))
    text = plain(render_table(Session(game, str(p), 1).table()))
    assert "moves made" in text and "secret_total" not in text
    assert "players" in text and "pile" in text  # an ungrouped zone is still drawn


def test_hands_are_sorted_by_suit_then_rank() -> None:
    from cardgame.repl.render import plain, render_table
    from cardgame.repl.session import Session

    sess = Session(compile_game("arsene"), "arsene", 21)
    sess.advance()
    row = next(ln for ln in plain(render_table(sess.table())).splitlines()
               if ln.startswith("p1 you"))
    cards = CARD.findall(row)
    order = "♠♥♣♦"
    suits = [order.index(c[-1]) for c in cards]
    assert len(cards) > 5 and suits == sorted(suits), row
