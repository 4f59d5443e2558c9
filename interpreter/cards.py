"""The card vocabulary every layer shares: suits, their symbols, colours, standard ranks."""

from __future__ import annotations

SUITS = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")
COLORS = ("red", "black")
STANDARD_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
