"""The full screen read as a person reads it (tmux at 80x24, send-keys, capture-pane):
every zone of a wide table is on screen, a question is on screen before it is answered,
long output (rules, help, log) is read whole, a page at a time, and no completion menu
covers a page or a question. Also the layout's width rules alone, without a terminal."""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

import pytest
from cardgame.interpreter.engine import compile_game
from cardgame.repl.layout import MORE_ROWS, clip, show_lines, table_lines
from cardgame.repl.pieces import width
from cardgame.repl.render import plain
from cardgame.repl.rules import rules_lines, rules_width
from cardgame.repl.screen import wrap_messages
from cardgame.repl.session import Session
from support import tmux as tmux_

ROOT = Path(__file__).resolve().parent.parent
COURTYARD = str(ROOT / "docs" / "examples" / "castle-courtyard.cardgame")
# a tmux server of the tests' own, and `cardgame play` in a session of it (support/tmux.py)
tmux = tmux_.needs_tmux
TMUX = tmux_.server("repl-screen")
PAGE = re.compile(r"^-- lines (\d+)-(\d+) of (\d+): (.*) --$")


@pytest.fixture(scope="module", autouse=True)
def tmux_server():  # type: ignore[no-untyped-def]
    yield from tmux_.keep_server(TMUX)


class Term(tmux_.Term):
    """`cardgame play` in a tmux session of a given size, once it is your turn; a screen
    has settled when it stayed the same three looks 0.1 s apart."""

    def __init__(self, args: list[str], cols: int = 80, rows: int = 24,
                 env: dict[str, str] | None = None) -> None:
        super().__init__(TMUX, args, cols, rows, ready=lambda s: "your turn" in s, rounds=3,
                         pause=0.1, env=env)

    def gone(self, timeout: float = 10.0) -> bool:
        """The program ended (its tmux session closed with it)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if subprocess.run([*TMUX, "has-session", "-t", self.name],
                              capture_output=True).returncode != 0:
                return True
            time.sleep(0.1)
        return False


def pager_line(screen: str) -> re.Match[str] | None:
    return next((m for ln in screen.splitlines() if (m := PAGE.match(ln.strip()))), None)


def read_pages(t: Term, command: str) -> tuple[list[str], list[str]]:
    """Type `command` (in one burst) and Enter through its pages: the lines of each
    page in order, and the screens."""
    t.keys(command, "Enter")
    screens = [t.settle()]
    got: list[str] = []
    while True:
        lines = screens[-1].splitlines()
        m = pager_line(screens[-1])
        assert m is not None, screens[-1]
        at = next(i for i, ln in enumerate(lines) if PAGE.match(ln.strip()))
        first, last = int(m.group(1)), int(m.group(2))
        page = [ln.rstrip() for ln in lines[:at]]
        # (`show` repeats the header row naming the columns above a page that starts
        # under it: a line already read, not counted in the page's line numbers)
        extra = len(page) - (last - first + 1)
        assert 0 <= extra <= 2 and all(ln in got for ln in page[:extra]), screens[-1]
        page = page[extra:]
        assert first == len(got) + 1, (first, len(got))  # nothing skipped between pages
        got += page
        if last == int(m.group(3)):
            return got, screens
        t.keys("Enter")
        screens.append(t.settle())


def session(game: str, seed: int) -> Session:
    sess = Session(compile_game(game), game, seed)
    sess.advance()
    return sess


# ---------------------------------------------------------------------- 1. wide tables
def test_wide_columns_wrap_onto_more_rows_and_no_line_is_wider_than_the_screen() -> None:
    info = session(COURTYARD, 1).table()
    for cols, height in ((80, 14), (60, 12), (40, 14)):
        text = [plain(ln) for ln in table_lines(info, cols, height)]
        assert all(width(ln) <= cols for ln in table_lines(info, cols, height)), text
        heads = re.findall(r"\bcolumn\d+\b", "\n".join(text))
        assert heads == [f"column{k}" for k in range(1, 11)], "\n".join(text)
        assert not any(re.search(r"\bcolum?n?$", ln) for ln in text), text  # no half label
    at80 = [plain(ln) for ln in table_lines(info, 80, 14)]
    assert any(ln.split() == [f"column{k}" for k in range(1, 11)] for ln in at80), at80
    castle = [plain(ln) for ln in table_lines(session("besieged-castle", 1).table(), 60, 12)]
    assert re.findall(r"\bcolumn\d+\b", "\n".join(castle)) == [
        f"column{k}" for k in range(1, 9)], castle


def test_a_players_row_too_wide_goes_on_below_not_cut_at_the_edge() -> None:
    info = session("hearts", 1).table()
    text = [plain(ln) for ln in table_lines(info, 60, 12)]
    assert all(len(ln) <= 60 and not ln.endswith("…") for ln in text), text
    mine = next(i for i, ln in enumerate(text) if ln.startswith("p1 you"))
    assert "score 0" in text[mine] + text[mine + 1], text  # the seat's score is shown


def test_a_table_too_big_for_the_screen_says_so_and_lines_too_wide_end_in_an_ellipsis() -> None:
    info = session("freecell", 1).table()
    lines = [plain(ln) for ln in table_lines(info, 40, 6)]
    assert len(lines) == 6 and MORE_ROWS in lines[-1] and "show" in lines[-1], lines
    assert plain(clip([("", "column1  column2")], 12)) == "column1  …"
    assert plain(clip([("", "column1"), ("", " column2")], 12)) == "column1 …"
    assert plain(clip([("", "shift column10 column8")], 10)) == "shift …"
    assert plain(clip([("", "short")], 12)) == "short"


def test_the_plain_mode_keeps_its_one_line_of_columns() -> None:
    # the plain mode leaves long lines to the terminal (a pipe is never cut)
    info = session(COURTYARD, 1).table()
    text = [plain(ln) for ln in table_lines(info, 80)]
    assert any(ln.split() == [f"column{k}" for k in range(1, 11)] for ln in text), text


@tmux
def test_every_column_of_a_wide_table_is_on_the_screen_at_80x24() -> None:
    t = Term([COURTYARD, "--seed", "1"])
    try:
        shot = t.settle()
    finally:
        t.close()
    assert re.findall(r"\bcolumn\d+\b", shot.split("your turn")[0]) == [
        f"column{k}" for k in range(1, 11)], shot
    head = next(ln for ln in shot.splitlines() if ln.startswith("column1"))
    assert head.rstrip().endswith("column10"), shot


@tmux
def test_show_pages_through_a_table_too_big_for_the_screen() -> None:
    t = Term(["freecell", "--seed", "1"], 40, 12)
    try:
        shot = t.settle()
        assert MORE_ROWS in shot.replace("\n", " ") or "more rows" in shot, shot
        lines, _ = read_pages(t, "show")
    finally:
        t.close()
    text = "\n".join(lines)
    assert re.findall(r"\bcolumn\d\b", text) == [f"column{k}" for k in range(1, 9)], text


def test_show_lines_name_the_header_above_each_row_of_a_grid() -> None:
    lines, heads = show_lines(session("freecell", 1).table(), 40)
    text = [plain(ln) for ln in lines]
    cards = [i for i, t in enumerate(text) if t.startswith("5♦")]
    assert cards and heads[cards[0]] is not None, text
    assert plain(heads[cards[0]]).split() == [f"column{k}" for k in range(1, 6)], text
    assert heads[0] is None and all(heads[i] is None for i, t in enumerate(text)
                                    if t.startswith(("free cell", "column"))), text


CARD_ROW = re.compile(r"^(?:10|[2-9AJQK])[♠♥♦♣]\s|^·\s|^\+\d+\s")


@tmux
@pytest.mark.parametrize("game,cols,rows", [("freecell", 40, 12), ("besieged-castle", 60, 14)])
def test_every_page_of_show_says_which_column_is_which(game: str, cols: int, rows: int) -> None:
    # (found by review: a page that started inside the columns lost their header row)
    t = Term([game, "--seed", "1"], cols, rows)
    try:
        _, screens = read_pages(t, "show")
    finally:
        t.close()
    starts_inside = 0
    for shot in screens:
        page = shot.splitlines()
        page = page[:next(i for i, ln in enumerate(page) if PAGE.match(ln.strip()))]
        rows_at = [i for i, ln in enumerate(page) if CARD_ROW.match(ln + " ")]
        if not rows_at:
            continue
        # a row of cards under a header on its own page: the zones it lies under
        assert re.match(r"(column|foundation)", page[0]) or any(
            re.match(r"(column|foundation)", ln) for ln in page[:rows_at[0]]), shot
        m = pager_line(shot)
        assert m is not None, shot
        repeated = len(page) - (int(m.group(2)) - int(m.group(1)) + 1)
        starts_inside += repeated == 1 and page[0].startswith("column")
    assert starts_inside, screens  # (the case of the review: a page that began in a column)


# ---------------------------------------------------------------------- 2. questions
@tmux
@pytest.mark.parametrize("how", [["C-d"], ["quit", "Enter"]], ids=["ctrl-d", "quit"])
def test_the_quit_question_is_on_the_screen_before_it_is_answered(how: list[str]) -> None:
    t = Term(["calculation", "--seed", "7"])
    try:
        t.keys("1", "Enter")
        t.settle()
        t.keys(*how)
        shot = t.wait_for(lambda s: "answer>" in s)
        shot = t.settle()
        assert "The game is not saved. Quit anyway? [y/N]" in shot, shot
        assert "working…" not in shot, shot
        t.keys("n", "Enter")
        assert "calculation>" in t.settle()
    finally:
        t.close()


@tmux
@pytest.mark.parametrize("plain", [False, True], ids=["screen", "plain"])
def test_a_second_ctrl_d_at_the_quit_question_quits(plain: bool) -> None:
    # (left by small15: the full screen took it as "no", the plain mode as "yes")
    env = {"CARDGAME_PLAIN": "1"} if plain else None
    t = Term(["calculation", "--seed", "7"], env=env)
    try:
        t.keys("1", "Enter")
        t.settle()
        t.keys("C-d")
        t.wait_for(lambda s: "Quit anyway?" in s)
        t.settle()
        t.keys("C-d")
        assert t.gone(), t.screen()
    finally:
        t.close()


# ---------------------------------------------------------------------- 3. long output
@tmux
def test_rules_are_read_whole_a_page_at_a_time() -> None:
    t = Term(["calculation", "--seed", "7"])
    try:
        got, screens = read_pages(t, "rules")
        t.keys("Enter")
        back = t.settle()
    finally:
        t.close()
    game = compile_game("calculation")
    want = wrap_messages([plain(ln) for ln in rules_lines(game, "calculation",
                                                          rules_width(80))], 80)
    assert got == [w.rstrip() for w in want]
    assert any(ln.startswith("• End. When the stock is empty") for ln in got)
    assert all(len(s.splitlines()) <= 24 for s in screens)
    assert "Calculation · seed 7" in back and PAGE.pattern not in back


@tmux
def test_help_is_read_whole_and_b_goes_back_a_page() -> None:
    t = Term(["calculation", "--seed", "7"])
    try:
        got, _ = read_pages(t, "help")
        t.keys("b", "Enter")
        again = t.settle()
        t.keys("q", "Enter")
        back = t.settle()
    finally:
        t.close()
    assert got[0] == "commands:" and got[-1] == "Ctrl-C cancels the line; Ctrl-D quits"
    assert again.startswith("commands:"), again
    assert "Calculation · seed 7" in back and pager_line(back) is None, back


@tmux
def test_log_opens_at_the_latest_moves_and_pages_back_to_the_first() -> None:
    t = Term(["calculation", "--seed", "7"])
    try:
        for _ in range(12):
            t.keys("1", "Enter")
            t.settle()
        t.keys("log", "Enter")
        first = t.settle()
        m = pager_line(first)
        assert m is not None, first
        assert m.group(2) == m.group(3), first  # the last lines first
        numbers = [int(x) for x in re.findall(r"^\s*(\d+)\. ", first, re.M)]
        assert numbers and numbers == list(range(numbers[0], numbers[-1] + 1)), first
        pages = [first]
        while (m := pager_line(pages[-1])) is not None and m.group(1) != "1":
            t.keys("b", "Enter")
            pages.append(t.settle())
    finally:
        t.close()
    seen = {int(x) for p in pages for x in re.findall(r"^\s*(\d+)\. ", p, re.M)}
    assert seen == set(range(1, max(seen) + 1)) and max(seen) >= 24, pages[-1]


@tmux
def test_a_second_enter_at_a_page_never_plays_a_move_under_it() -> None:
    # (found by review: the line was no longer busy while a page waited, so a second
    # Enter in the same burst ran as an empty line, which plays the only move)
    t = Term(["calculation", "--seed", "1"])
    try:
        t.keys("set auto off", "Enter")
        t.settle()
        for k in ("1", "1", "2", "2"):
            t.keys(k, "Enter")
            shot = t.settle()
        assert "only move" in shot, shot
        before = shot.splitlines()[0]
        assert before.endswith("move 5"), before
        for _ in range(8):  # (a race: the second Enter must come between two pages)
            t.keys("rules", "Enter")  # (pages enough that two Enters stay in the pager)
            t.settle()
            t.keys("Enter", "Enter")  # one burst
            t.settle()
            t.keys("q", "Enter")
            after = t.settle()
            assert after.splitlines()[0] == before, after
    finally:
        t.close()


@tmux
def test_a_move_typed_at_a_page_leaves_the_page_and_is_played() -> None:
    # (found by review: any line typed at a page counted as Enter, so a move typed there
    # was dropped; and a move beginning with b or q turned the page back or stopped it)
    t = Term(["calculation", "--seed", "7"])
    try:
        before = t.settle().splitlines()[0]
        t.keys("rules", "Enter")
        page = t.settle()
        assert pager_line(page) is not None, page
        t.keys("1", "Enter")
        after = t.settle()
    finally:
        t.close()
    assert pager_line(after) is None, after  # the page is left...
    assert before.endswith("move 1") and after.splitlines()[0] != before, after  # ...played


@tmux
def test_a_page_is_shown_again_whole_after_the_screen_changes_size() -> None:
    t = Term(["calculation", "--seed", "7"])
    try:
        for _ in range(20):
            t.keys("1", "Enter")
            t.settle()
        t.keys("log", "Enter")
        t.settle()
        t.keys("b", "Enter")
        page = t.settle()
        m = pager_line(page)
        assert m is not None, page
        top = page.splitlines()[0]
        subprocess.run([*TMUX, "resize-window", "-t", t.name, "-x", "60", "-y", "14"],
                       check=True)
        t.settle()
        t.keys("Enter")
        again = t.settle()
    finally:
        t.close()
    m2 = pager_line(again)
    assert m2 is not None and "more lines" not in again, again
    # the same place in the log, wrapped for 60 columns: the first entry is the same
    first = re.match(r"\s*(\d+)\.", top)
    assert first is not None and re.match(rf"\s*{first.group(1)}\.", again.splitlines()[0]), \
        (top, again)


@tmux
def test_show_is_laid_out_again_when_the_screen_narrows_while_it_pages() -> None:
    # (found by review: the table laid out for 60 columns was wrapped at 40, so a page
    # ended on half a header row and columns 6-7 came on indented lines of their own)
    t = Term(["freecell", "--seed", "1"], 60, 20)
    try:
        t.keys("show", "Enter")
        t.settle()
        subprocess.run([*TMUX, "resize-window", "-t", t.name, "-x", "40", "-y", "12"],
                       check=True)
        t.settle()
        screens = []
        for _ in range(12):
            t.keys("Enter")
            shot = t.settle()
            if pager_line(shot) is None:
                break
            screens.append(shot)
    finally:
        t.close()
    assert len(screens) >= 3, screens
    for shot in screens:
        page = shot.splitlines()
        page = [ln.rstrip() for ln in page[:next(i for i, ln in enumerate(page)
                                                  if PAGE.match(ln.strip()))]]
        # laid out for 40 columns: no header wrapped onto an indented line of its own
        assert not any(re.match(r"\s+column\d", ln) for ln in page), shot
        # and no page ends on a header row with nothing under it
        assert not re.match(r"column\d", page[-1]), shot


# ---------------------------------------------------------------------- 4. the menu
@tmux
def test_no_completion_menu_covers_a_page_pasted_in_one_burst() -> None:
    t = Term(["calculation", "--seed", "7"])
    try:
        t.keys("rules", "Enter")
        shot = t.settle()
    finally:
        t.close()
    lines = shot.splitlines()
    assert pager_line(shot) is not None, shot
    # the menu lists the commands with their descriptions over the text
    assert not any(re.match(r"^ (help|rules|moves|undo) +\S", ln) for ln in lines), shot
    assert lines[0].strip() == "CALCULATION", shot


@tmux
def test_tab_at_a_page_or_a_question_completes_nothing() -> None:
    # (found by review: the menu was hidden there, but Tab still completed out of sight,
    # and a second Tab wrote a move's name after `more>`)
    t = Term(["calculation", "--seed", "7"])
    try:
        t.keys("1", "Enter")
        t.settle()
        t.keys("rules", "Enter")
        page = t.settle()
        assert pager_line(page) is not None, page
        for _ in range(3):
            t.keys("Tab")
            shot = t.settle()
            assert shot.splitlines()[:-1] == page.splitlines()[:-1], shot  # nothing drawn
            assert re.search(r"^more>\s*$", shot, re.M), shot  # nothing typed
        t.keys("q", "Enter")
        t.settle()
        t.keys("quit", "Enter")
        question = t.settle()
        assert "answer>" in question, question
        for _ in range(2):
            t.keys("Tab")
            shot = t.settle()
            assert re.search(r"^answer>\s*$", shot, re.M), shot
        assert not any(re.match(r"^ (help|rules|discard) +\S", ln)
                       for ln in shot.splitlines()), shot
        t.keys("n", "Enter")
        assert "calculation>" in t.settle()
    finally:
        t.close()


@tmux
def test_tab_at_the_hand_over_screen_lists_no_moves_of_the_next_seat() -> None:
    t = Term(["interaction", "--players", "3", "--seat", "1", "--seat", "2", "--seed", "3"])
    try:
        shot = t.settle()
        for _ in range(4):
            t.keys("1", "Enter")
            shot = t.settle()
            if "Hand over" in shot:
                break
        assert "Hand over to p" in shot, shot
        for _ in range(2):
            t.keys("Tab")
            after = t.settle()
            assert re.search(r"^Enter>\s*$", after, re.M), after  # nothing completed
            assert not re.search(r"^ (open|play|help) +\S", after, re.M), after  # no menu
    finally:
        t.close()


@tmux
@pytest.mark.parametrize("plain", [False, True], ids=["screen", "plain"])
def test_ctrl_d_at_a_page_leaves_it_and_quits_as_at_the_prompt(plain: bool) -> None:
    # (found by review: in the plain mode Ctrl-D at a page only left the page)
    env = {"CARDGAME_PLAIN": "1"} if plain else None
    more = re.compile(r"^-- \d+ of \d+ lines: Enter for more" if plain else PAGE.pattern)
    t = Term(["calculation", "--seed", "7"], env=env)
    try:
        t.keys("1", "Enter")
        t.settle()
        t.keys("rules", "Enter")
        page = t.settle()
        assert any(more.match(ln.strip()) for ln in page.splitlines()), page
        t.keys("C-d")
        t.wait_for(asking)
        t.keys("n", "Enter")  # no: back at the prompt, the page left
        back = t.settle()
        tail = back.split("Quit anyway? [y/N]")[-1].splitlines()
        assert any(ln.startswith("calculation>") for ln in tail), back
        assert not any(more.match(ln.strip()) for ln in tail), back
        t.keys("rules", "Enter")
        t.settle()
        t.keys("C-d")
        t.wait_for(asking)
        t.keys("y", "Enter")
        assert t.gone(), t.screen()
    finally:
        t.close()


def asking(screen: str) -> bool:
    """The quit question waits for its answer (the full screen's `answer>`, or the
    plain mode's question on the last line written)."""
    lines = [ln for ln in screen.splitlines() if ln.strip()]
    return "answer>" in screen or any(
        ln.startswith("The game is not saved. Quit anyway? [y/N]") for ln in lines[-2:])
