"""The terminal sanitiser: what comes from a file or a save is shown, never obeyed."""

import pytest

from interpreter.terminal import sanitize


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
