"""The card vocabulary every layer shares: suits, their symbols, colours, standard ranks,
and the one spelling used to compare a typed card or move with a printed one."""

from __future__ import annotations

SUITS = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")
COLORS = ("red", "black")
STANDARD_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_LETTERS = {sym: suit[0] for sym, suit in zip(SUIT_SYMBOLS, SUITS, strict=True)}


def normalize(text: str) -> str:
    """One spelling for a card or a move as typed or printed: lower case, single spaces,
    suits as letters (`Play  Q♠` and `play qs` are both `play qs`)."""
    t = " ".join(text.strip().lower().split())
    for sym, letter in SUIT_LETTERS.items():
        t = t.replace(sym, letter)
    return t
