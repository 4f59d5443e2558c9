"""The terminal sanitiser: what comes from a file or a save is shown, never obeyed."""

import pytest

from interpreter.terminal import counted, sanitize


@pytest.mark.parametrize("raw, shown", [
    ("plain text", "plain text"),
    ("Arsène 7♣ 10♥ 王", "Arsène 7♣ 10♥ 王"),
    ("\x1b[2J\x1b]0;pwned\x07", "\\u001b[2J\\u001b]0;pwned\\u0007"),
    ("a\x9bb", "a\\u009bb"),            # C1 control (CSI)
    ("abc\u202edef", "abc\\u202edef"),  # right-to-left override
    ("\u2066x\u2069", "\\u2066x\\u2069"),  # bidi isolates
    ("zero\u200bwidth\u200d", "zero\\u200bwidth\\u200d"),
    ("\ufeffbom", "\\ufeffbom"),
    ("line\u2028sep", "line\\u2028sep"),
    ("no\u00a0break", "no\\u00a0break"),
    ("del\x7f", "del\\u007f"),
    ("a\rb", "a\\u000db"),
])
def test_unsafe_characters_are_shown_escaped(raw: str, shown: str) -> None:
    assert sanitize(raw) == shown


def test_newlines_kept_or_escaped() -> None:
    assert sanitize("a\nb\tc") == "a\nb\tc"
    assert sanitize("a\nb\tc", newlines=False) == "a\\u000ab\\u0009c"


def test_result_is_printable() -> None:
    every = "".join(chr(i) for i in range(0x3000)) + "\U000e0001\U0010ffff"
    out = sanitize(every, newlines=False)
    assert out.isprintable()


@pytest.mark.parametrize("count, noun, shown", [
    (1, "game", "1 game"),
    (0, "game", "0 games"),
    (2, "move", "2 moves"),
    (1234, "move", "1,234 moves"),       # thousands grouped, as every report writes them
    (1, "property", "1 property"),
    (3, "property", "3 properties"),     # consonant + y
    (2, "play", "2 plays"),              # vowel + y: not "plaies"
    (2, "day", "2 days"),
    (4, "decision point", "4 decision points"),  # a phrase: its last word
    (2, "quick walk", "2 quick walks"),
    (2, "match", "2 matches"),
    (3, "box", "3 boxes"),
    (2, "pass", "2 passes"),
])
def test_counted_writes_a_count_with_its_noun(count: int, noun: str, shown: str) -> None:
    assert counted(count, noun) == shown


def test_the_reports_have_no_count_helper_of_their_own() -> None:
    # cli, the examples' report and the fuzz report each wrote one, with plural rules
    # that differed ("propertys" in two of them, "plaies" in the third)
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "interpreter"
    for f in ("cli.py", "examples/report.py", "fuzz/report.py"):
        text = (root / f).read_text(encoding="utf-8")
        assert "def _n(" not in text and "counted(" in text, f
