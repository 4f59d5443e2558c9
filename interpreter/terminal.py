"""The one gate between text from a file or a save and the terminal.

Names, descriptions, notes, move texts and rules text come from files a user may have
downloaded. Printed raw, an escape sequence in them could move the cursor, retitle the
window or hide text; a bidi override or a zero-width character could make a line read
differently from what it is. `sanitize` shows every such character visibly, as `\\u202e`,
and leaves all other text (suit symbols, accents, CJK) as it is.

`counted` writes a count with its noun, as every report of the tools writes one.
"""

from __future__ import annotations

from collections.abc import Sequence


def _escape(ch: str) -> str:
    o = ord(ch)
    return f"\\u{o:04x}" if o <= 0xFFFF else f"\\U{o:08x}"


def sanitize(text: str, *, newlines: bool = True) -> str:
    """`text` with every unsafe character written as a visible escape.

    `newlines`: keep line feeds (and tabs) as they are, for multi-line text such as rules;
    False for a text that must stay on one line (a name, a move).
    """
    if text.isascii() and text.isprintable():  # the common case, at C speed
        return text
    # Not printable, in Python's sense: controls (C0, DEL, C1), format characters (bidi
    # controls, zero-width spaces and joiners, BOM, soft hyphen), separators other than the
    # space (no-break and other-width spaces look like a space and are not one), surrogates,
    # private use and unassigned code points.
    out = []
    for ch in text:
        if ch in "\n\t" and newlines:
            out.append(ch)
        elif ch.isprintable():
            out.append(ch)
        else:
            out.append(_escape(ch))
    return "".join(out)


def listed(items: Sequence[object]) -> str:
    """Items as a sentence lists them: "2", "2 and 3", "2, 3 and 4"."""
    words = [str(x) for x in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def counted(count: int, noun: str) -> str:
    """`count` and `noun`, the noun (or a phrase's last word) plural unless the count is
    1: "1 game", "1,234 moves", "3 properties", "2 quick walks". Thousands are grouped
    with commas, as the tools write every other count."""
    if count == 1:
        return f"1 {noun}"
    if noun.endswith("y") and noun[-2:-1] not in ("", "a", "e", "i", "o", "u"):
        plural = noun[:-1] + "ies"  # property -> properties; play, day stay + s
    elif noun.endswith(("s", "x", "z", "ch", "sh")):
        plural = noun + "es"
    else:
        plural = noun + "s"
    return f"{count:,} {plural}"
