"""The card vocabulary every layer shares: suits, their symbols, colours, standard ranks,
and the one spelling used to compare a typed card or move with a printed one."""

from __future__ import annotations

SUITS = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")
COLORS = ("red", "black")
STANDARD_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_LETTERS = {sym: suit[0] for sym, suit in zip(SUIT_SYMBOLS, SUITS, strict=True)}
MAX_SUITS = 8  # a custom deck's `deck suits ...`


def suit_symbols(names: tuple[str, ...]) -> tuple[str, ...]:
    """How cards of these suits are written after their rank: the French suits by their
    symbols (`K♣`), other suits by the shortest lower-case prefix of their name that tells
    them apart (coins, cups, swords, batons: `7co`, `7cu`, `7s`, `7b`)."""
    if names == SUITS:
        return SUIT_SYMBOLS
    out = []
    for name in names:
        low = name.lower()
        others = [o.lower() for o in names if o != name]
        k = 1
        while k < len(low) and any(o.startswith(low[:k]) for o in others):
            k += 1
        out.append(low[:k])
    return tuple(out)


def normalize(text: str) -> str:
    """One spelling for a card or a move as typed or printed: lower case, single spaces,
    suits as letters (`Play  Q♠` and `play qs` are both `play qs`)."""
    t = " ".join(text.strip().lower().split())
    for sym, letter in SUIT_LETTERS.items():
        t = t.replace(sym, letter)
    return t
