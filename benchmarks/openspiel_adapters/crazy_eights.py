"""Crazy Eights: benchmarks/crazy-eights-openspiel.cardgame (the bundled game, `extends
"crazy-eights"`, written to OpenSpiel's rules) against OpenSpiel's `crazy_eights` with
`reshuffle=true` (no special cards, max_draw_cards 5, max_turns 100).

OpenSpiel's rules, which the variant follows: a player may draw even with a card that
fits, up to 5 cards a turn, then may pass; the discard pile under its top card becomes
the stock as soon as the stock runs out; the game ends after 100 cards played, or after
players + 1 passes in a row with nothing to draw. (Versions of OpenSpiel before its fix of
June 2025, "the initial face up card should be regarded as played", left the starter card
in the dealer's hand as well, an extra card there: with those the legal moves differ.
open_spiel 2.0.2 has the fix. Every other rule that touches the legal moves was read
against its crazy_eights.cc and agrees: see docs/games/crazy-eights.md.)

The points are rescored from the hands on both sides with the bundled rule (8: 50; 10,
J, Q, K: 10; A: 1; others their rank): OpenSpiel's returns count an ace 10 and a 2-10 as
its card index plus 2, so they cannot be compared. OpenSpiel's hands are read from its
observation strings. How a game ended: a player went out (a hand is empty), the play
limit (100 cards played), else blocked (the passes in a row).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

_VARIANT = str(Path(__file__).resolve().parent.parent / "crazy-eights-openspiel.cardgame")
_OS_RANKS = "23456789TJQKA"  # the columns of OpenSpiel's hand display
_PLAY_LIMIT = 100


def points(face: str) -> int:
    """The bundled game's count of a card left in hand, by its rank's face."""
    if face == "8":
        return 50
    if face in ("10", "T", "J", "Q", "K"):
        return 10
    if face == "A":
        return 1
    return int(face)


class CrazyEights:
    name = "crazy_eights"
    game = "crazy-eights"
    notes = __doc__ or ""
    bundled: tuple[str, dict[str, str]] = ("crazy-eights", {})

    def __init__(self) -> None:
        self.players = 3

    def ours(self, players: int) -> tuple[str, int, dict[str, str]]:
        self.players = players
        return _VARIANT, players, {}

    def openspiel(self, players: int) -> tuple[str, dict[str, Any]]:
        self.players = players
        return "crazy_eights", {"players": players, "reshuffle": True}

    def our_kind(self, move_name: str) -> str:
        return "turn"

    def os_kind(self, state: Any) -> str:
        return "turn"

    def _metrics(self, hands: list[tuple[int, int]], end: str,
                 decisions: int) -> dict[str, float]:
        out: dict[str, float] = {f"ends: {k}": float(end == k)
                                 for k in ("out", "limit", "blocked")}
        out["seat 1 goes out"] = float(hands[0][0] == 0)
        out["points left in a hand"] = sum(p for _, p in hands) / len(hands)
        out["decisions per game"] = float(decisions)
        return out

    def our_outcome(self, game: Any, state: Any) -> dict[str, float]:
        hands = []
        for p in range(1, game.players + 1):
            cards = game.zone_cards(state, f"hand-p{p}")
            hands.append((len(cards), sum(points(c[:-1]) for c in cards)))
        reason = game.end_reason(state) or ""
        end = "out" if "went out" in reason else "limit" if "limit" in reason else "blocked"
        return self._metrics(hands, end, game.moves_played(state))

    def os_outcome(self, state: Any, history: list[tuple[int, int]]) -> dict[str, float]:
        hands = [self._os_hand(state, p) for p in range(self.players)]
        plays = sum(1 for p, a in history if p >= 0 and a < 52)
        decisions = sum(1 for p, _ in history if p >= 0)
        end = ("out" if any(c == 0 for c, _ in hands)
               else "limit" if plays >= _PLAY_LIMIT else "blocked")
        return self._metrics(hands, end, decisions)

    @staticmethod
    def _os_hand(state: Any, p: int) -> tuple[int, int]:
        """(cards, points) of seat p's hand, read from its observation string."""
        cards = pts = 0
        for line in state.observation_string(p).splitlines():
            if line.startswith("Suit ") and line[6] == ":":
                cols = line[8:8 + len(_OS_RANKS)]
                for i, ch in enumerate(cols):
                    if ch != " ":
                        cards += 1
                        pts += points(_OS_RANKS[i])
        return cards, pts
